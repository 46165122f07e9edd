package dev.streamhouse.flink.sink.writer;

import dev.streamhouse.storage.table.Table;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

/**
 * The writer of fixed-bucket and append tables: each input row goes into the bucket the storage write
 * derives from it. See {@link AbstractWriterOperator} for hand-out, state and restore.
 */
public final class WriterOperator extends AbstractWriterOperator<RowData> {
    private static final long serialVersionUID = 1L;

    /** @param replacesData whether the commit replaces the partitions written (overwrite) */
    public WriterOperator(Table table, String commitUser, boolean replacesData) {
        super(table, commitUser, false, replacesData);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        write().write(view.replace(element.getValue()));
    }
}
