package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.columnar.ColumnVector;
import dev.streamhouse.storage.data.columnar.ColumnarBatch;
import dev.streamhouse.storage.data.columnar.ColumnarRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.read.DataFileReadPlan;
import dev.streamhouse.storage.read.DataFileReaders;
import dev.streamhouse.storage.read.DeletionVector;
import dev.streamhouse.storage.reader.ColumnarRecordReader;
import dev.streamhouse.storage.reader.ColumnarRowIterator;
import dev.streamhouse.storage.reader.ConcatRecordReader;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The raw read: the files of a split one after another, in split order, without merging. Each batch is
 * a {@link ColumnarRowIterator} whose rows are views of the file's column vectors: the wanted columns
 * cast to their current types, projected to the output columns (the first {@code outputArity} wanted
 * ones; the others are only read for the row filter), with the rows the row filter rejects and the rows
 * of the file's deletion vector left out. Nothing is copied per row.
 *
 * <p>With row kinds (primary-key files), {@code _VALUE_KIND} is read as well and gives each row its
 * kind; retractions (-U, -D) are dropped when reading a bucket's live data, and kept when reading
 * changes. Used for append tables, delta splits, and primary-key splits whose files can be read as they
 * are (one version per key, docs/format.md §8.2).
 */
final class RawSplitRead implements SplitRead {
    private final DataFileReaders files;
    private final List<DataField> wanted;
    private final Predicate fileFilter;
    private final Predicate rowFilter;
    private final RowType outputType;
    private final int[] outputPositions;
    private final boolean withKinds;
    private final boolean dropRetractions;
    private final ConcurrentHashMap<Long, FilePlan> plans = new ConcurrentHashMap<>();

    /**
     * @param wanted the table columns to read, the output ones first
     * @param fileFilter over {@code wanted} positions, used to skip row groups and pages; or null
     * @param rowFilter over {@code wanted} positions, the rows to keep; or null for all
     * @param outputArity how many of {@code wanted} are returned
     * @param withKinds whether rows carry the kind stored in {@code _VALUE_KIND} (primary-key files)
     * @param dropRetractions whether rows of kind -U and -D are left out (only with kinds)
     */
    RawSplitRead(DataFileReaders files, List<DataField> wanted, Predicate fileFilter, Predicate rowFilter,
            int outputArity, boolean withKinds, boolean dropRetractions) {
        this.files = files;
        this.wanted = List.copyOf(wanted);
        this.fileFilter = fileFilter;
        this.rowFilter = rowFilter;
        this.outputPositions = new int[outputArity];
        for (int i = 0; i < outputArity; i++) {
            outputPositions[i] = i;
        }
        this.outputType = new RowType(wanted.subList(0, outputArity));
        this.withKinds = withKinds;
        this.dropRetractions = dropRetractions;
    }

    @Override
    public RecordReader<InternalRow> createReader(DataSplit split, DeletionVector.Source deletionVectors) {
        List<ConcatRecordReader.ReaderSupplier<InternalRow>> readers = new ArrayList<>(split.files().size());
        for (DataFileMeta file : split.files()) {
            readers.add(() -> open(split, file, deletionVectors));
        }
        return new ConcatRecordReader<>(readers);
    }

    private RecordReader<InternalRow> open(DataSplit split, DataFileMeta file, DeletionVector.Source deletionVectors)
            throws IOException {
        Path path = files.path(split.partition(), split.bucket(), file);
        FilePlan plan = plans.get(file.schemaId());
        if (plan == null) {
            plan = plan(files.schemaOf(file, path), path);
            plans.putIfAbsent(file.schemaId(), plan);
        }
        return new FileRows(files.open(split.partition(), split.bucket(), path, file, plan.plan, deletionVectors),
                plan.kindPosition, path);
    }

    private FilePlan plan(TableSchema fileSchema, Path path) {
        DataFileReadPlan.Builder builder = DataFileReadPlan.builder(fileSchema, path.toString(), files.tableName());
        int[] positions = new int[wanted.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = builder.column(wanted.get(i));
        }
        int kindPosition = withKinds ? builder.valueKind() : -1;
        if (fileFilter != null) {
            builder.filter(fileFilter, positions);
        }
        return new FilePlan(builder.build(), kindPosition);
    }

    private static final class FilePlan {
        final DataFileReadPlan plan;
        final int kindPosition;

        FilePlan(DataFileReadPlan plan, int kindPosition) {
            this.plan = plan;
            this.kindPosition = kindPosition;
        }
    }

    /** One file's batches as output batches. */
    private final class FileRows implements ColumnarRecordReader {
        private final ColumnarRecordReader reader;
        private final int kindPosition;
        private final Path path;
        private final ColumnarRow filterView = new ColumnarRow();
        /** Scratch: the ids of the retractions of the batch being read. */
        private int[] retractionIds = new int[0];

        FileRows(ColumnarRecordReader reader, int kindPosition, Path path) {
            this.reader = reader;
            this.kindPosition = kindPosition;
            this.path = path;
        }

        @Override
        public ColumnarRowIterator readBatch() throws IOException {
            ColumnarRowIterator batch = reader.readBatch();
            if (batch == null) {
                return null;
            }
            ColumnarBatch read = batch.batch();
            int retractions = 0;
            if (withKinds) {
                ColumnVector kinds = read.vector(kindPosition);
                try {
                    retractions = checkKinds(kinds, read.numRows());
                } catch (IOException e) {
                    batch.releaseBatch();
                    throw e;
                }
                read = read.withKinds(kinds);
            }
            ColumnarBatch full = read;
            ColumnarRowIterator out = batch.withBatch(b -> full.project(outputPositions, outputType));
            if (dropRetractions) {
                out = out.skipRows(retractionIds, retractions);
            }
            if (rowFilter != null) {
                out = out.keepOnly(id -> rowFilter.test(filterView.point(full, id)));
            }
            return out;
        }

        /**
         * Fails unless every row has a kind; when retractions are dropped, collects the ids of the rows
         * of kind -U and -D in {@link #retractionIds} and returns how many there are.
         */
        private int checkKinds(ColumnVector kinds, int n) throws IOException {
            if (kinds.hasNulls(n)) {
                throw new IOException("Cannot read data file " + path + " of table " + files.tableName()
                        + ": it has no _VALUE_KIND column; it is not a primary-key data file");
            }
            if (dropRetractions && retractionIds.length < n) {
                retractionIds = new int[n];
            }
            int retractions = 0;
            for (int i = 0; i < n; i++) {
                byte kind = kinds.getByte(i);
                if (kind < 0 || kind > 3) {
                    throw new IOException("Cannot read data file " + path + " of table " + files.tableName()
                            + ": _VALUE_KIND " + kind + " is not a row kind (0..3); the file is corrupt");
                }
                if (dropRetractions && (kind == 1 || kind == 3)) { // -U, -D
                    retractionIds[retractions++] = i;
                }
            }
            return retractions;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
