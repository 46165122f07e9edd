package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.deletionvectors.BitmapDeletionVector;
import dev.streamhouse.storage.deletionvectors.DeletionFile;
import dev.streamhouse.storage.deletionvectors.DeletionFileReader;
import dev.streamhouse.storage.deletionvectors.SnapshotDeletionFiles;
import dev.streamhouse.storage.data.ProjectedRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.read.DataFileReaders;
import dev.streamhouse.storage.read.DeletionVector;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.reader.TransformingRecordReader;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the rows of a data table's splits. Each split is read by one {@link SplitRead}: a raw read (file after file,
 * no merge) for append tables, delta splits and primary-key splits whose files need no merging
 * ({@link DataSplit#rawConvertible()} without retractions), a merge read over the bucket's sorted runs
 * for the other primary-key splits. Columns are mapped by field id to the current schema and widened
 * types converted. The filter only skips row groups and pages unless {@link #executeFilter()} is
 * called, in which case rows that do not match are dropped too.
 *
 * <p><b>Batches and rows.</b> {@link RecordReader#readBatch()} returns the rows in batches. Batches of a
 * raw read are {@link dev.streamhouse.storage.reader.ColumnarRowIterator}s over the files' column
 * vectors ({@link dev.streamhouse.storage.reader.ColumnarRowIterator#batch()}); merge reads return one
 * batch per key-disjoint section of the bucket. Every row returned is a view of its own, nothing copied
 * per row: of a raw batch's vectors, or of the merged version's vectors. Vectors are never refilled, so
 * rows stay valid after the next row is read and after their batch is released, as long as they are
 * referenced (a consumer may hand them to another thread, e.g. Flink's task thread).
 *
 * <p><b>Delta splits</b> ({@link DataSplit#delta()}) hold changes and are never merged: their files
 * are read one after another in the split's (sequence-number) order. Rows of an append table are
 * inserts. Rows of a primary-key table are the stored versions with their row kinds (+I, -U, +U, -D),
 * each key's versions in the order they were written. On such rows {@link #executeFilter()} applies only the conjuncts
 * over primary-key and partition columns: a change of another column must reach the consumer even if
 * the new value no longer matches (otherwise it would keep the stale row).
 *
 * <p><b>Retractions in full splits.</b> By default a full split of a primary-key table returns the
 * live rows: each key's merged version, leaving out keys whose latest version is a retraction. A read
 * of a {@link DataReadBuilder#keepingRetractions()} builder returns every key's merged version with
 * its kind, -D and -U included, as the audit log shows them.
 *
 * <p><b>Deletion vectors.</b> The rows of full splits that carry deletion files
 * ({@link DataSplit#deletionFiles()}) are read without the positions those vectors delete, in raw and
 * merge reads alike; each file's vector is read from its range of the index file when the file is
 * opened ({@link DeletionFileReader}), the index manifest is not read. Full splits of a table with
 * {@code deletion-vectors.enabled} that carry none were serialized before splits carried them
 * ({@link dev.streamhouse.storage.serialization.DataSplitSerializer} version 1): their deletion files
 * are looked up in the index manifest of the split's snapshot (the last few are remembered), which
 * fails naming the snapshot if it has expired. Delta splits are read without them: they hold level-0
 * or changelog files, which have none, and Paimon 1.3 does not apply them to streamed changes either.
 *
 * <p>Thread-safe for creating readers (split reads are prepared once and shared by all splits).
 */
public final class DataTableRead implements TableRead {
    private static final int REMEMBERED_SNAPSHOTS = 8;

    private final TableSchema schema;
    private final int[] projection;
    private final DataFileReaders files;
    private final DeletionFileReader deletionFiles;
    /** Where a snapshot's deletion vectors are, for splits that do not carry them; null for tables without them. */
    private final SnapshotDeletionFiles.Loader snapshotDeletionFiles;
    /** What {@link #snapshotDeletionFiles} gave for the last snapshots asked, by snapshot id. */
    private final Map<Long, SnapshotDeletionFiles> remembered = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, SnapshotDeletionFiles> eldest) {
            return size() > REMEMBERED_SNAPSHOTS;
        }
    };
    /** Table positions of the columns read: the projection, then the filter's other columns. */
    private final int[] readPositions;
    /** The filter over positions of {@link #readPositions}, or null. */
    private final Predicate readFilter;
    /** Whether merged and raw reads of full splits keep retractions (see {@link DataReadBuilder#keepingRetractions()}). */
    private final boolean keepRetractions;
    private boolean executeFilter;
    private SplitRead plainRead;
    private SplitRead deltaRead;
    private SplitRead mergeRead;
    private SplitRead diffRead;

    /**
     * @param snapshotDeletionFilesOrNull for a table with {@code deletion-vectors.enabled}: looks up
     *     the deletion files of full splits that do not carry them; null for other tables
     */
    DataTableRead(FileIO fileIO, TablePaths paths, TableSchema schema, SchemaCache schemas, String tableName,
            int[] projection, Predicate filter, boolean keepRetractions,
            SnapshotDeletionFiles.Loader snapshotDeletionFilesOrNull) {
        this.schema = schema;
        this.deletionFiles = new DeletionFileReader(fileIO, tableName);
        this.snapshotDeletionFiles = snapshotDeletionFilesOrNull;
        this.keepRetractions = keepRetractions;
        this.projection = projection;
        this.files = new DataFileReaders(fileIO, paths, schemas, tableName);
        List<Integer> positions = new ArrayList<>();
        for (int p : projection) {
            positions.add(p);
        }
        if (filter != null) {
            for (int p : PredicateBuilder.referencedFields(filter)) {
                if (!positions.contains(p)) {
                    positions.add(p);
                }
            }
        }
        this.readPositions = positions.stream().mapToInt(Integer::intValue).toArray();
        int[] tableToRead = new int[schema.rowType().fieldCount()];
        Arrays.fill(tableToRead, -1);
        for (int i = 0; i < readPositions.length; i++) {
            tableToRead[readPositions[i]] = i;
        }
        this.readFilter = filter == null ? null
                : PredicateBuilder.transformFieldMapping(filter, tableToRead).orElse(null);
    }

    @Override
    public DataTableRead executeFilter() {
        this.executeFilter = true;
        plainRead = null;
        deltaRead = null;
        return this;
    }

    @Override
    public RowType outputType() {
        return schema.rowType().project(projection);
    }

    @Override
    public RecordReader<InternalRow> createReader(Split split) throws IOException {
        if (!(split instanceof DataSplit)) {
            throw new IllegalArgumentException("Cannot read split " + split + ": not a DataSplit");
        }
        DataSplit ds = (DataSplit) split;
        if (schema.hasPrimaryKey() && ds.diff()) {
            return cutToOutput(diffRead().createReader(ds, DeletionVector.Source.NONE));
        }
        if (schema.hasPrimaryKey() && ds.delta()) {
            return deltaRead().createReader(ds, DeletionVector.Source.NONE);
        }
        if (schema.hasPrimaryKey() && !ds.rawConvertible()) {
            return cutToOutput(mergeRead().createReader(ds, deletionVectorsOf(ds)));
        }
        return plainRead().createReader(ds, deletionVectorsOf(ds));
    }

    private DeletionVector.Source deletionVectorsOf(DataSplit split) throws IOException {
        if (split.delta()) {
            return DeletionVector.Source.NONE;
        }
        List<DeletionFile> carried = split.deletionFiles();
        if (carried == null) {
            if (snapshotDeletionFiles == null) {
                return DeletionVector.Source.NONE;
            }
            carried = ofSnapshot(split.snapshotId()).forFiles(split.partition(), split.bucket(), split.files());
        }
        Map<String, DeletionFile> byFile = new HashMap<>();
        for (int i = 0; i < carried.size(); i++) {
            if (carried.get(i) != null) {
                byFile.put(split.files().get(i).fileName(), carried.get(i));
            }
        }
        if (byFile.isEmpty()) {
            return DeletionVector.Source.NONE;
        }
        return (partition, bucket, file) -> {
            DeletionFile deletionFile = byFile.get(file.fileName());
            if (deletionFile == null) {
                return null;
            }
            BitmapDeletionVector vector = deletionFiles.read(deletionFile, file.fileName());
            return vector.isEmpty() ? null : vector;
        };
    }

    /** The deletion files of a snapshot, for splits serialized before splits carried them. */
    private SnapshotDeletionFiles ofSnapshot(long snapshotId) throws IOException {
        synchronized (remembered) {
            SnapshotDeletionFiles known = remembered.get(snapshotId);
            if (known != null) {
                return known;
            }
        }
        SnapshotDeletionFiles loaded = snapshotDeletionFiles.of(snapshotId);
        synchronized (remembered) {
            remembered.put(snapshotId, loaded);
        }
        return loaded;
    }

    private List<DataField> readFields() {
        List<DataField> fields = new ArrayList<>(readPositions.length);
        for (int p : readPositions) {
            fields.add(schema.rowType().field(p));
        }
        return fields;
    }

    /**
     * Files read as they are: append tables, and primary-key splits that need no merge (their rows
     * carry the stored kinds; retractions, which such files may hold when written by old writers, are
     * dropped).
     */
    private synchronized SplitRead plainRead() {
        if (plainRead == null) {
            boolean primaryKey = schema.hasPrimaryKey();
            plainRead = new RawSplitRead(files, readFields(), readFilter, executeFilter ? readFilter : null,
                    projection.length, primaryKey, primaryKey && !keepRetractions);
        }
        return plainRead;
    }

    /**
     * The changes of a primary-key table: every stored version with its kind. Only key and partition
     * conjuncts may skip row groups or rows (a changed value must reach the consumer even if it no
     * longer matches); row groups are skipped by the key conjuncts alone, as the keys' versions are all
     * in the file.
     */
    private synchronized SplitRead deltaRead() {
        if (deltaRead == null) {
            Predicate keyConjuncts = readFilter == null ? null : conjunctsOn(readFilter, true, false);
            Predicate rowFilter = executeFilter && readFilter != null ? conjunctsOn(readFilter, true, true) : null;
            deltaRead = new RawSplitRead(files, readFields(), keyConjuncts, rowFilter, projection.length, true, false);
        }
        return deltaRead;
    }

    /**
     * Diff splits ({@link DiffSplitRead}): the read columns plus the primary key (to pair the two sides' versions),
     * cut back to the read columns.
     */
    private synchronized SplitRead diffRead() {
        if (diffRead == null) {
            List<Integer> positions = new ArrayList<>();
            for (int p : readPositions) {
                positions.add(p);
            }
            int[] keyPositions = schema.positionsOf(schema.trimmedPrimaryKeys());
            int[] keyInRead = new int[keyPositions.length];
            for (int i = 0; i < keyPositions.length; i++) {
                int at = positions.indexOf(keyPositions[i]);
                if (at < 0) {
                    at = positions.size();
                    positions.add(keyPositions[i]);
                }
                keyInRead[i] = at;
            }
            int[] diffPositions = positions.stream().mapToInt(Integer::intValue).toArray();
            SplitRead merged = new MergeSplitRead(files, schema, diffPositions, null, true);
            SplitRead diff = new DiffSplitRead(merged, schema.rowType().project(diffPositions), keyInRead,
                    keepRetractions);
            if (diffPositions.length == readPositions.length) {
                diffRead = diff;
            } else {
                int[] toRead = new int[readPositions.length];
                Arrays.setAll(toRead, i -> i);
                diffRead = (split, vectors) -> new TransformingRecordReader<>(diff.createReader(split, vectors), null,
                        r -> new ProjectedRow(toRead).replace(r));
            }
        }
        return diffRead;
    }

    private synchronized SplitRead mergeRead() {
        if (mergeRead == null) {
            mergeRead = new MergeSplitRead(files, schema, readPositions, readFilter, keepRetractions);
        }
        return mergeRead;
    }

    /** The conjuncts of {@link #readFilter} that use only primary-key (and partition) columns. */
    private Predicate conjunctsOn(Predicate predicate, boolean keys, boolean partitions) {
        List<String> names = schema.fieldNames();
        int[] mapping = new int[readPositions.length];
        for (int i = 0; i < mapping.length; i++) {
            String name = names.get(readPositions[i]);
            boolean stable = (keys && schema.primaryKeys().contains(name))
                    || (partitions && schema.partitionKeys().contains(name));
            mapping[i] = stable ? i : -1;
        }
        return PredicateBuilder.pickByFieldMapping(predicate, mapping).orElse(null);
    }

    /** Merged rows of the read columns, filtered (with {@link #executeFilter()}) and cut to the projection. */
    private RecordReader<InternalRow> cutToOutput(RecordReader<InternalRow> rows) {
        Predicate rowFilter = executeFilter ? readFilter : null;
        boolean needsProjection = readPositions.length != projection.length;
        if (rowFilter == null && !needsProjection) {
            return rows;
        }
        int[] outMapping = new int[projection.length];
        Arrays.setAll(outMapping, i -> i);
        return new TransformingRecordReader<>(rows, rowFilter == null ? null : rowFilter::test,
                needsProjection ? r -> new ProjectedRow(outMapping).replace(r) : r -> r);
    }
}
