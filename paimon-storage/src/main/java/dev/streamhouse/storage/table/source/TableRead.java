package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.casting.CastedRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.ProjectedRow;
import dev.streamhouse.storage.format.FileFormats;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.mergetree.read.KeyFilterPruner;
import dev.streamhouse.storage.mergetree.read.MergeEngines;
import dev.streamhouse.storage.mergetree.read.MergeReadProjection;
import dev.streamhouse.storage.mergetree.read.MergeTreeReaders;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.reader.ConcatRecordReader;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.reader.TransformingRecordReader;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.PlainType;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the rows of splits. For append tables each file is read as is, columns mapped by field id to
 * the current schema and widened types converted ({@link FileReadPlan}); primary-key tables are
 * merged on read with the same column mapping. The filter only skips row groups unless
 * {@link #executeFilter()} is called, in which case rows that do not match are dropped too.
 *
 * <p><b>Delta splits</b> ({@link DataSplit#delta()}) hold changes and are never merged: their files
 * are read one after another in the split's (sequence-number) order. Rows of an append table are
 * inserts. Rows of a primary-key table are the stored versions with their row kinds (+I, -U, +U, -D),
 * each key's versions in the order they were written. On such rows {@link #executeFilter()} applies only the conjuncts
 * over primary-key and partition columns: a change of another column must reach the consumer even if
 * the new value no longer matches (otherwise it would keep the stale row).
 */
public final class TableRead {
    private final FileIO fileIO;
    private final TablePaths paths;
    private final TableSchema schema;
    private final SchemaCache schemas;
    private final String tableName;
    private final int[] projection;
    private final Predicate filter;
    private boolean executeFilter;

    TableRead(FileIO fileIO, TablePaths paths, TableSchema schema, SchemaCache schemas, String tableName,
            int[] projection, Predicate filter) {
        this.fileIO = fileIO;
        this.paths = paths;
        this.schema = schema;
        this.schemas = schemas;
        this.tableName = tableName;
        this.projection = projection;
        this.filter = filter;
    }

    /** Also drop rows that do not satisfy the filter (by default the filter only prunes). */
    public TableRead executeFilter() {
        this.executeFilter = true;
        return this;
    }

    /** The type of the rows returned. */
    public RowType outputType() {
        return schema.rowType().project(projection);
    }

    public RecordReader<InternalRow> createReader(List<? extends Split> splits) {
        List<ConcatRecordReader.ReaderSupplier<InternalRow>> suppliers = new ArrayList<>();
        for (Split s : splits) {
            suppliers.add(() -> createReader(s));
        }
        return new ConcatRecordReader<>(suppliers);
    }

    public RecordReader<InternalRow> createReader(Split split) throws IOException {
        if (!(split instanceof DataSplit)) {
            throw new IllegalArgumentException("Cannot read split " + split + ": not a DataSplit");
        }
        DataSplit ds = (DataSplit) split;
        // Read the projected columns plus the filter's columns; project after filtering.
        RowType tableType = schema.rowType();
        List<Integer> readPositions = new ArrayList<>();
        for (int p : projection) {
            readPositions.add(p);
        }
        if (filter != null) {
            for (int p : PredicateBuilder.referencedFields(filter)) {
                if (!readPositions.contains(p)) {
                    readPositions.add(p);
                }
            }
        }
        List<DataField> wanted = new ArrayList<>();
        int[] tableToRead = new int[tableType.fieldCount()];
        java.util.Arrays.fill(tableToRead, -1);
        for (int i = 0; i < readPositions.size(); i++) {
            wanted.add(tableType.field(readPositions.get(i)));
            tableToRead[readPositions.get(i)] = i;
        }
        Predicate readFilter = filter == null
                ? null
                : PredicateBuilder.transformFieldMapping(filter, tableToRead)
                        .orElse(null);
        int[] outMapping = new int[projection.length];
        for (int i = 0; i < projection.length; i++) {
            outMapping[i] = i;
        }
        boolean needsProjection = readPositions.size() != projection.length;

        int[] positions = readPositions.stream().mapToInt(Integer::intValue).toArray();
        Predicate rowFilter = executeFilter ? readFilter : null;
        RecordReader<InternalRow> reader;
        if (schema.hasPrimaryKey() && ds.delta()) {
            reader = changeReader(ds, positions, readFilter);
            rowFilter = rowFilter == null ? null : keyAndPartitionConjuncts(rowFilter, positions);
        } else if (schema.hasPrimaryKey() && !readsAsPlainFiles(ds)) {
            reader = primaryKeyReader(ds, positions, readFilter);
        } else {
            // Raw primary-key files also carry each row's kind in _VALUE_KIND, read after the wanted columns.
            boolean withValueKind = schema.hasPrimaryKey();
            List<ConcatRecordReader.ReaderSupplier<InternalRow>> files = new ArrayList<>();
            for (DataFileMeta file : ds.files()) {
                files.add(() -> openFile(ds, file, wanted, readFilter, withValueKind));
            }
            reader = new ConcatRecordReader<>(files);
            needsProjection |= withValueKind;
        }
        if (rowFilter != null || needsProjection) {
            ProjectedRow projected = new ProjectedRow(outMapping);
            Predicate test = rowFilter;
            reader = new TransformingRecordReader<>(reader,
                    test == null ? null : test::test,
                    needsProjection ? projected::replace : r -> r);
        }
        return reader;
    }

    /**
     * Whether a split's files can be read like an append table's: only the wanted value columns, no
     * key-value wrapping. True for append tables, and for raw-convertible primary-key splits whose
     * files are known to hold no retraction (a null delete count, from old writers, might).
     */
    private boolean readsAsPlainFiles(DataSplit split) {
        if (!split.rawConvertible()) {
            return false;
        }
        for (DataFileMeta f : split.files()) {
            if (f.deleteRowCount() == null || f.deleteRowCount() != 0) {
                return false;
            }
        }
        return true;
    }

    /** The conjuncts of {@code readFilter} (over read positions) that use only key and partition columns. */
    private Predicate keyAndPartitionConjuncts(Predicate readFilter, int[] readPositions) {
        List<String> names = schema.fieldNames();
        int[] mapping = new int[readPositions.length];
        for (int i = 0; i < mapping.length; i++) {
            String name = names.get(readPositions[i]);
            boolean stable = schema.primaryKeys().contains(name) || schema.partitionKeys().contains(name);
            mapping[i] = stable ? i : -1;
        }
        return PredicateBuilder.pickByFieldMapping(readFilter, mapping).orElse(null);
    }

    /**
     * The stored versions in the files of a delta split, file after file, each value row carrying its
     * version's kind (set in place on the reused row). No merging, so every change is seen.
     */
    private RecordReader<InternalRow> changeReader(DataSplit split, int[] readPositions, Predicate readFilter) {
        KeyValueLayout layout = KeyValueLayout.of(schema);
        Predicate keyFilter = readFilter == null ? null
                : KeyFilterPruner.keyFilterOf(readFilter, schema.rowType().project(readPositions), layout.keyType());
        KeyValueFileReaderFactory readerFactory = new KeyValueFileReaderFactory(fileIO, paths, layout, schemas,
                readPositions, keyFilter);
        List<ConcatRecordReader.ReaderSupplier<KeyValue>> files = new ArrayList<>();
        for (DataFileMeta file : split.files()) {
            files.add(() -> readerFactory.createReader(split.partition(), split.bucket(), file));
        }
        return new TransformingRecordReader<KeyValue, InternalRow>(new ConcatRecordReader<>(files),
                null,
                kv -> {
                    InternalRow value = kv.value();
                    value.setRowKind(kv.valueKind());
                    return value;
                });
    }

    /**
     * Merge-on-read of one bucket (or a plain read when the split is raw-convertible): the merge
     * engine combines the versions of each key and retractions are dropped.
     */
    private RecordReader<InternalRow> primaryKeyReader(DataSplit split, int[] readPositions, Predicate readFilter) {
        MergeReadProjection projection = MergeReadProjection.of(schema, readPositions);
        KeyValueLayout layout = KeyValueLayout.of(schema);
        Predicate keyFilter = readFilter == null ? null
                : KeyFilterPruner.keyFilterOf(readFilter, schema.rowType().project(readPositions), layout.keyType());
        KeyValueFileReaderFactory readerFactory = new KeyValueFileReaderFactory(fileIO, paths, layout, schemas,
                projection.readProjection(), keyFilter);
        MergeTreeReaders readers = new MergeTreeReaders(readerFactory, MergeEngines.create(schema),
                projection.versionOrder());
        return projection.cutBack(readers.readRows(split.partition(), split.bucket(), split.files(), split.rawConvertible()));
    }

    /**
     * The wanted columns of one data file, by field id, cast to their current types. With
     * {@code withValueKind} (primary-key files), {@code _VALUE_KIND} is read as one more trailing
     * column and sets each row's kind.
     */
    private RecordReader<InternalRow> openFile(DataSplit split, DataFileMeta file, List<DataField> wanted,
            Predicate readFilter, boolean withValueKind) throws IOException {
        TableSchema fileSchema = schemas.schema(file.schemaId());
        FileReadPlan plan = FileReadPlan.of(wanted, fileSchema, readFilter, file.fileName(), tableName);
        String format = DataFilePathFactory.formatOf(file.fileName());
        dev.streamhouse.storage.fs.Path path = paths.dataFile(split.partition(), split.bucket(), file.fileName());
        RowType readType = plan.fileReadType;
        if (withValueKind) {
            List<DataField> fields = new ArrayList<>(readType.fields());
            fields.add(new DataField(KeyValueLayout.VALUE_KIND_FIELD_ID, KeyValueLayout.VALUE_KIND,
                    new PlainType(false, DataTypeRoot.TINYINT)));
            readType = new RowType(fields);
        }
        RecordReader<InternalRow> reader;
        try {
            reader = FileFormats.of(format).readerFactory(readType, plan.fileFilter)
                    .createReader(fileIO, path, file.fileSize());
        } catch (IOException e) {
            throw new IOException("Cannot read data file " + path + " of table " + tableName + ": " + e.getMessage(), e);
        }
        if (withValueKind) {
            int kindPosition = wanted.size();
            reader = new TransformingRecordReader<>(reader, null, row -> {
                row.setRowKind(RowKind.fromByteValue(row.byteAt(kindPosition)));
                return row;
            });
        }
        if (plan.needsCast()) {
            CastedRow casted = plan.castedRow();
            reader = new TransformingRecordReader<>(reader, null, casted::replace);
        }
        return new TableErrorReader(reader, path, tableName);
    }
}
