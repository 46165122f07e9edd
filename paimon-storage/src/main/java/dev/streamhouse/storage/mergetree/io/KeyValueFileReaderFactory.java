package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.format.FileFormats;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens primary-key data files as readers of {@link KeyValue}s: the key (trimmed primary key), the
 * sequence number, the change kind and a value row holding the projected table columns in projection
 * order; {@link KeyValue#level()} is the file's level. Records come in file order (ascending keys).
 *
 * <p>Files written with an older schema ({@link DataFileMeta#schemaId()}) are read by field id: renamed
 * columns keep their data, columns added later read as NULL, value columns widened by ALTER TABLE are
 * converted ({@link dev.streamhouse.storage.casting.ColumnCast}), and the key is read from
 * {@code _KEY_<name in that schema>}. Files written in {@code data-file.thin-mode} (per their schema's
 * options) have no {@code _KEY_*} columns; their key is taken from the value columns.
 *
 * <p>Readers reuse one KeyValue (and its key and value views) per file: a record is valid until the
 * next call of {@code next()} on the same reader. The key filter only skips row groups; rows are not
 * filtered. Errors name the file and the table. Thread-safe for creating readers.
 */
public final class KeyValueFileReaderFactory {
    private final FileIO fileIO;
    private final TablePaths paths;
    private final KeyValueLayout layout;
    private final SchemaCache schemas;
    private final int[] valueProjection;
    private final Predicate keyFilter;
    private final String tableName;
    private final ConcurrentHashMap<Long, KeyValueReadPlan> plans = new ConcurrentHashMap<>();

    /**
     * @param currentLayout the layout of the schema to read as (usually the latest)
     * @param valueProjection positions in {@code currentLayout.valueType()} of the value columns to read
     * @param keyFilterOrNull a predicate over key positions used to skip row groups, or null
     */
    public KeyValueFileReaderFactory(FileIO fileIO, TablePaths paths, KeyValueLayout currentLayout,
            SchemaCache schemas, int[] valueProjection, Predicate keyFilterOrNull) {
        for (int p : valueProjection) {
            if (p < 0 || p >= currentLayout.valueType().fieldCount()) {
                throw new IllegalArgumentException("Cannot read table " + paths.root() + ": value projection "
                        + java.util.Arrays.toString(valueProjection) + " refers to a column that does not exist");
            }
        }
        this.fileIO = fileIO;
        this.paths = paths;
        this.layout = currentLayout;
        this.schemas = schemas;
        this.valueProjection = valueProjection.clone();
        this.keyFilter = keyFilterOrNull;
        this.tableName = paths.root().toString();
    }

    public KeyValueLayout layout() {
        return layout;
    }

    /** The type of the value rows of the KeyValues read: the projected table columns. */
    public RowType valueReadType() {
        return layout.valueType().project(valueProjection);
    }

    public int[] valueProjection() {
        return valueProjection.clone();
    }

    /** Opens {@code file} of the given partition and bucket. */
    public RecordReader<KeyValue> createReader(BinaryRow partition, int bucket, DataFileMeta file)
            throws IOException {
        Path path = paths.dataFile(partition, bucket, file.fileName());
        KeyValueReadPlan plan = plans.get(file.schemaId());
        if (plan == null) {
            TableSchema fileSchema;
            try {
                fileSchema = schemas.schema(file.schemaId());
            } catch (UncheckedIOException e) {
                throw new IOException("Cannot read data file " + path + " of table " + tableName + ": its schema "
                        + file.schemaId() + " cannot be read: " + e.getCause().getMessage(), e.getCause());
            }
            plan = KeyValueReadPlan.of(layout, valueProjection, fileSchema, keyFilter, path.toString(), tableName);
            plans.putIfAbsent(file.schemaId(), plan);
        }
        RecordReader<InternalRow> rows;
        try {
            rows = FileFormats.of(DataFilePathFactory.formatOf(file.fileName()))
                    .readerFactory(plan.fileReadType, plan.fileFilter)
                    .createReader(fileIO, path, file.fileSize());
        } catch (IOException e) {
            throw new IOException("Cannot read data file " + path + " of table " + tableName + ": "
                    + e.getMessage(), e);
        }
        return new KeyValueFileReader(rows, plan, file.level(), path, tableName);
    }
}
