package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.format.parquet.ParquetFileFormat;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A primary-key table on local disk for merge-tree IO tests: schema files, paths, factories. */
public final class KvTestTable {
    public static final FileIO FILE_IO = LocalFileIO.INSTANCE;

    public final Path root;
    public final SchemaManager schemaManager;
    public final SchemaCache schemas;
    public TableSchema schema;

    private KvTestTable(Path root, TableSchema schema) {
        this.root = root;
        this.schemaManager = new SchemaManager(FILE_IO, root);
        this.schemas = new SchemaCache(schemaManager);
        this.schema = schema;
    }

    public static KvTestTable create(java.nio.file.Path dir, Schema schema) throws IOException {
        Path root = new Path(dir.resolve("t").toString());
        TableSchema created = new SchemaManager(FILE_IO, root).createTable(schema);
        return new KvTestTable(root, created);
    }

    /** Publishes {@code next} (id = current id + 1) and makes it current. */
    public void evolve(TableSchema next) throws IOException {
        if (!schemaManager.commitNewVersion(next)) {
            throw new IllegalStateException("schema " + next.id() + " exists");
        }
        schema = next;
    }

    public KeyValueLayout layout() {
        return KeyValueLayout.of(schema);
    }

    public TablePaths paths() {
        return new TablePaths(root, new TablePaths.RendererSpec(schema.partitionType(),
                schema.tableOptions().get(PartitionOptions.PARTITION_DEFAULT_NAME),
                schema.tableOptions().get(PartitionOptions.PARTITION_LEGACY_NAME)));
    }

    public KeyValueFileWriterFactory writerFactory(BinaryRow partition, int bucket, long targetFileSize) {
        return writerFactory(FILE_IO, partition, bucket, targetFileSize);
    }

    public KeyValueFileWriterFactory writerFactory(FileIO fileIO, BinaryRow partition, int bucket,
            long targetFileSize) {
        DataFilePathFactory pathFactory = new DataFilePathFactory(paths().bucketDir(partition, bucket), "data-",
                "changelog-", "parquet");
        return new KeyValueFileWriterFactory(fileIO, layout(), new ParquetFileFormat(), schema.tableOptions(),
                pathFactory, schema.id(), targetFileSize);
    }

    public KeyValueFileReaderFactory readerFactory(int[] projection, Predicate keyFilter) {
        return new KeyValueFileReaderFactory(FILE_IO, paths(), layout(), schemas, projection, keyFilter);
    }

    public int[] allColumns() {
        int[] p = new int[schema.fields().size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = i;
        }
        return p;
    }

    public static KeyValue kv(InternalRow key, long seq, RowKind kind, InternalRow value) {
        return new KeyValue().replace(key, seq, kind, value);
    }

    /** A KeyValue copied out of a reader, comparable by value. */
    public record Kv(GenericRow key, long seq, RowKind kind, GenericRow value, int level) {
        @Override
        public String toString() {
            return key + "#" + seq + kind.shortString() + value + "@" + level;
        }

        public Kv withoutLevel() {
            return new Kv(key, seq, kind, value, KeyValue.UNKNOWN_LEVEL);
        }
    }

    public static Kv copy(KeyValue kv, RowType keyType, RowType valueType) {
        GenericRow key = InternalRowUtils.copyToGeneric(kv.key(), keyType);
        key.setRowKind(RowKind.INSERT);
        GenericRow value = InternalRowUtils.copyToGeneric(kv.value(), valueType);
        value.setRowKind(RowKind.INSERT);
        return new Kv(key, kv.sequenceNumber(), kv.valueKind(), value, kv.level());
    }

    /** Reads everything, copying each record before the next one is read; closes the reader. */
    public static List<Kv> readAll(RecordReader<KeyValue> reader, RowType keyType, RowType valueType)
            throws IOException {
        List<Kv> out = new ArrayList<>();
        reader.forEachRemaining(kv -> out.add(copy(kv, keyType, valueType)));
        return out;
    }

    /** Reads all rows as copies (row kind kept); closes the reader. */
    public static List<GenericRow> readRows(RecordReader<InternalRow> reader, RowType type) throws IOException {
        List<GenericRow> out = new ArrayList<>();
        reader.forEachRemaining(r -> out.add(InternalRowUtils.copyToGeneric(r, type)));
        return out;
    }
}
