package dev.streamhouse.flink.sink.writer;

import dev.streamhouse.storage.table.Table;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

/**
 * The writer of a dynamic-bucket table: takes each row with the bucket a {@link BucketAssignerOperator}
 * gave it, routed so that each (partition, bucket) has one writer, writes it into that bucket and
 * keeps the bucket's hash index file up to date. See {@link AbstractWriterOperator} for hand-out,
 * state and restore.
 */
public final class AssignedBucketWriterOperator extends AbstractWriterOperator<Tuple2<RowData, Integer>> {
    private static final long serialVersionUID = 1L;

    /** @param replacesData whether the commit replaces the partitions written (overwrite) */
    public AssignedBucketWriterOperator(Table table, String commitUser, boolean replacesData) {
        super(table, commitUser, true, replacesData);
    }

    @Override
    public void processElement(StreamRecord<Tuple2<RowData, Integer>> element) throws Exception {
        Tuple2<RowData, Integer> assigned = element.getValue();
        write().write(view.replace(assigned.f0), assigned.f1);
    }
}
