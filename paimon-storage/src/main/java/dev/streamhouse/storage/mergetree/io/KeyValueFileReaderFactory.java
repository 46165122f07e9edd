package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.read.DataFileReadPlan;
import dev.streamhouse.storage.read.DataFileReaders;
import dev.streamhouse.storage.read.DeletionVector;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens primary-key data files as readers of {@link KeyValue}s: the key (trimmed primary key), the
 * sequence number, the change kind and a value row holding the projected table columns in projection
 * order; {@link KeyValue#level()} is the file's level. Records come in file order (ascending keys).
 *
 * <p>Files are opened through {@link DataFileReaders} with one {@link DataFileReadPlan} per schema
 * version, so files written with an older schema are read by field id (renamed columns keep their data,
 * columns added later read as NULL, widened value columns are converted) and the key is read from
 * {@code _KEY_<name in that schema>}, or, for files written in {@code data-file.thin-mode}, from the value
 * columns. The rows come as batches of column vectors; the KeyValues are views over them
 * ({@link KeyValueFileReader}).
 *
 * <p>Readers reuse one KeyValue (and its key and value views) per file: a record is valid until the
 * next call of {@code next()} on the same reader. The key filter only skips row groups and pages; rows
 * are not filtered. Errors name the file and the table. Thread-safe for creating readers.
 */
public final class KeyValueFileReaderFactory {
    private final DataFileReaders files;
    private final KeyValueLayout layout;
    private final int[] valueProjection;
    private final RowType valueReadType;
    private final Predicate keyFilter;
    private final DeletionVector.Source deletionVectors;
    private final ConcurrentHashMap<Long, KeyValueColumns> plans;

    /**
     * @param currentLayout the layout of the schema to read as (usually the latest)
     * @param valueProjection positions in {@code currentLayout.valueType()} of the value columns to read
     * @param keyFilterOrNull a predicate over key positions used to skip row groups, or null
     */
    public KeyValueFileReaderFactory(FileIO fileIO, TablePaths paths, KeyValueLayout currentLayout,
            SchemaCache schemas, int[] valueProjection, Predicate keyFilterOrNull) {
        this(new DataFileReaders(fileIO, paths, schemas), currentLayout, valueProjection, keyFilterOrNull,
                DeletionVector.Source.NONE);
    }

    public KeyValueFileReaderFactory(DataFileReaders files, KeyValueLayout currentLayout, int[] valueProjection,
            Predicate keyFilterOrNull, DeletionVector.Source deletionVectors) {
        for (int p : valueProjection) {
            if (p < 0 || p >= currentLayout.valueType().fieldCount()) {
                throw new IllegalArgumentException("Cannot read table " + files.tableName() + ": value projection "
                        + Arrays.toString(valueProjection) + " refers to a column that does not exist");
            }
        }
        this.files = files;
        this.layout = currentLayout;
        this.valueProjection = valueProjection.clone();
        this.valueReadType = currentLayout.valueType().project(valueProjection);
        this.keyFilter = keyFilterOrNull;
        this.deletionVectors = deletionVectors;
        this.plans = new ConcurrentHashMap<>();
    }

    /**
     * The same reader factory (sharing its per-schema read plans), skipping the deleted rows of
     * {@code deletionVectors} instead.
     */
    public KeyValueFileReaderFactory withDeletionVectors(DeletionVector.Source deletionVectors) {
        return new KeyValueFileReaderFactory(this, deletionVectors);
    }

    private KeyValueFileReaderFactory(KeyValueFileReaderFactory base, DeletionVector.Source deletionVectors) {
        this.files = base.files;
        this.layout = base.layout;
        this.valueProjection = base.valueProjection;
        this.valueReadType = base.valueReadType;
        this.keyFilter = base.keyFilter;
        this.plans = base.plans;
        this.deletionVectors = deletionVectors;
    }

    public KeyValueLayout layout() {
        return layout;
    }

    /** The type of the value rows of the KeyValues read: the projected table columns. */
    public RowType valueReadType() {
        return valueReadType;
    }

    public int[] valueProjection() {
        return valueProjection.clone();
    }

    /** Opens {@code file} of the given partition and bucket. */
    public RecordReader<KeyValue> createReader(BinaryRow partition, int bucket, DataFileMeta file)
            throws IOException {
        Path path = files.path(partition, bucket, file);
        KeyValueColumns columns = plans.get(file.schemaId());
        if (columns == null) {
            TableSchema fileSchema = files.schemaOf(file, path);
            columns = KeyValueColumns.plan(layout, valueProjection, fileSchema, keyFilter, path.toString(),
                    files.tableName());
            plans.putIfAbsent(file.schemaId(), columns);
        }
        return new KeyValueFileReader(
                files.open(partition, bucket, path, file, columns.plan, deletionVectors),
                columns, layout.keyType(), valueReadType, file.level(), path, files.tableName());
    }
}
