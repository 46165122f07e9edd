package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.mergetree.read.KeyFilterPruner;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.mergetree.read.MergeReadProjection;
import dev.streamhouse.storage.mergetree.read.MergeTreeReaders;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.read.DataFileReaders;
import dev.streamhouse.storage.read.DeletionVector;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.schema.TableSchema;

/**
 * The merge read: merge-on-read of a bucket's sorted runs ({@link MergeTreeReaders}), one merged
 * version per key with retractions dropped (or kept, for the audit log), each row with its latest
 * version's kind (+I or +U; -U or -D when kept). The
 * files' batches are consumed as KeyValue views over their column vectors; a merged row is a view of
 * the version that won, valid until the next row. Rows hold the read columns (the wanted ones; with
 * {@code sequence.field}, the sequence fields are read for the merge and cut off again). The filter's
 * key conjuncts skip row groups and pages; rows are not filtered here. The deleted rows of a split's
 * deletion vectors are skipped in every file before the merge.
 */
final class MergeSplitRead implements SplitRead {
    private final KeyValueFileReaderFactory readerFactory;
    private final MergeFunctionFactory mergeFunctions;
    private final MergeTreeReaders readers;
    private final MergeReadProjection projection;
    private final boolean keepRetractions;

    /**
     * @param readPositions the table columns to read, in output order
     * @param readFilter over {@code readPositions} positions, or null
     * @param keepRetractions whether keys whose merged version is a retraction are returned too
     */
    MergeSplitRead(DataFileReaders files, TableSchema schema, int[] readPositions, Predicate readFilter,
            boolean keepRetractions) {
        this.keepRetractions = keepRetractions;
        MergeFunctionFactory engine = MergeEngines.create(schema);
        this.projection = MergeReadProjection.of(schema,
                engine.readFields(readPositions, schema.rowType().fieldCount()), readPositions.length);
        KeyValueLayout layout = KeyValueLayout.of(schema);
        Predicate keyFilter = readFilter == null ? null
                : KeyFilterPruner.keyFilterOf(readFilter, schema.rowType().project(readPositions), layout.keyType());
        this.readerFactory = new KeyValueFileReaderFactory(files, layout, projection.readProjection(), keyFilter,
                DeletionVector.Source.NONE);
        this.mergeFunctions = engine.forReadFields(projection.readProjection());
        this.readers = new MergeTreeReaders(readerFactory, mergeFunctions, projection.versionOrder());
    }

    @Override
    public RecordReader<InternalRow> createReader(DataSplit split, DeletionVector.Source deletionVectors) {
        MergeTreeReaders readers = deletionVectors == DeletionVector.Source.NONE ? this.readers
                : new MergeTreeReaders(readerFactory.withDeletionVectors(deletionVectors), mergeFunctions,
                        projection.versionOrder());
        return projection.cutBack(keepRetractions
                ? readers.readRowsWithRetractions(split.partition(), split.bucket(), split.files())
                : readers.readRows(split.partition(), split.bucket(), split.files()));
    }
}
