package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.read.DeletionVector;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Objects;

/**
 * The read of a diff split of a primary-key table ({@link DataSplit#diff()}): the keys whose merged version
 * differs between the start and the end snapshot, as Apache Paimon 1.3.1 reads {@code incremental-between}
 * of two tags or scan mode {@code diff}. Both sides (the bucket's files in each snapshot) are merged on their
 * own and compared key by key on the read columns and on whether the version is a retraction:
 * <ul>
 *   <li>a key only the end has, or whose version changed: the end's version, when it is not a retraction;
 *   <li>a key whose end version is a retraction, or that only the start has: nothing, unless the read keeps
 *       retractions ({@link DataReadBuilder#keepingRetractions()}), which returns the end's retraction, or the
 *       start's version as -D;
 *   <li>an unchanged key: nothing.
 * </ul>
 * Both merged sides come in key order, so they are walked together: one row of each side is held at a time.
 */
final class DiffSplitRead implements SplitRead {
    private final SplitRead merged;
    private final RowType readType;
    private final KeyRowComparator keys;
    private final boolean keepRetractions;

    /**
     * @param mergedWithRetractions the merge read of the read columns, retractions kept
     * @param readType the read columns
     * @param keyPositions the positions of the primary key among the read columns
     */
    DiffSplitRead(SplitRead mergedWithRetractions, RowType readType, int[] keyPositions, boolean keepRetractions) {
        this.merged = mergedWithRetractions;
        this.readType = readType;
        this.keys = new KeyRowComparator(readType, keyPositions);
        this.keepRetractions = keepRetractions;
    }

    @Override
    public RecordReader<InternalRow> createReader(DataSplit split, DeletionVector.Source deletionVectors)
            throws IOException {
        DataSplit beforeSide = new DataSplit(split.snapshotId(), split.partition(), split.bucket(),
                split.totalBuckets(), split.beforeFiles(), false);
        DataSplit afterSide = new DataSplit(split.snapshotId(), split.partition(), split.bucket(),
                split.totalBuckets(), split.files(), false);
        Cursor before = new Cursor(merged.createReader(beforeSide, DeletionVector.Source.NONE));
        try {
            return new DiffReader(before, new Cursor(merged.createReader(afterSide, DeletionVector.Source.NONE)));
        } catch (IOException | RuntimeException e) {
            before.close();
            throw e;
        }
    }

    /** One side's merged rows in key order, as copies (the merge read's rows are views valid until the next). */
    private final class Cursor {
        private final RecordReader<InternalRow> reader;
        private RecordIterator<InternalRow> batch;
        private boolean done;

        Cursor(RecordReader<InternalRow> reader) {
            this.reader = reader;
        }

        /** The next row, or null at the end. */
        GenericRow next() throws IOException {
            while (!done) {
                if (batch == null) {
                    batch = reader.readBatch();
                    if (batch == null) {
                        done = true;
                        break;
                    }
                }
                InternalRow row = batch.next();
                if (row != null) {
                    return InternalRowUtils.copyToGeneric(row, readType);
                }
                batch.releaseBatch();
                batch = null;
            }
            return null;
        }

        void close() throws IOException {
            if (batch != null) {
                batch.releaseBatch();
                batch = null;
            }
            reader.close();
        }
    }

    /** Both sides walked together in key order; what differs comes out, as one batch. */
    private final class DiffReader implements RecordReader<InternalRow> {
        private final Cursor before;
        private final Cursor after;
        private boolean returned;

        DiffReader(Cursor before, Cursor after) {
            this.before = before;
            this.after = after;
        }

        @Override
        public RecordIterator<InternalRow> readBatch() throws IOException {
            if (returned) {
                return null;
            }
            returned = true;
            return new RecordIterator<>() {
                private GenericRow start = before.next();
                private GenericRow end = after.next();

                @Override
                public InternalRow next() throws IOException {
                    while (start != null || end != null) {
                        int order = start == null ? 1 : end == null ? -1 : keys.compare(start, end);
                        if (order < 0) {
                            GenericRow removed = start;
                            start = before.next();
                            if (keepRetractions && !removed.rowKind().isRetract()) {
                                removed.setRowKind(RowKind.DELETE);
                                return removed;
                            }
                        } else if (order > 0) {
                            GenericRow added = end;
                            end = after.next();
                            if (keepRetractions || !added.rowKind().isRetract()) {
                                return added;
                            }
                        } else {
                            GenericRow was = start;
                            GenericRow is = end;
                            start = before.next();
                            end = after.next();
                            boolean same = was.rowKind().isRetract() == is.rowKind().isRetract() && sameValues(was, is);
                            if (!same && (keepRetractions || !is.rowKind().isRetract())) {
                                return is;
                            }
                        }
                    }
                    return null;
                }

                @Override
                public void releaseBatch() {}
            };
        }

        private boolean sameValues(GenericRow a, GenericRow b) {
            for (int i = 0; i < readType.fieldCount(); i++) {
                if (!Objects.deepEquals(a.field(i), b.field(i))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void close() throws IOException {
            try {
                after.close();
            } finally {
                before.close();
            }
        }
    }
}
