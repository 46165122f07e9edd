package dev.streamhouse.storage.index;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.CorruptManifestException;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.types.DataTypes;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IndexManifestFileTest {
    /** docs/format.md §5.6, verified against files written by Paimon 1.3.1. */
    static final String SCHEMA = "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":[{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_KIND\",\"type\":\"int\"},{\"name\":\"_PARTITION\",\"type\":\"bytes\"},{\"name\":\"_BUCKET\",\"type\":\"int\"},{\"name\":\"_INDEX_TYPE\",\"type\":\"string\"},{\"name\":\"_FILE_NAME\",\"type\":\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},{\"name\":\"_DELETIONS_VECTORS_RANGES\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",{\"type\":\"record\",\"name\":\"record__DELETIONS_VECTORS_RANGES\",\"fields\":[{\"name\":\"f0\",\"type\":\"string\"},{\"name\":\"f1\",\"type\":\"int\"},{\"name\":\"f2\",\"type\":\"int\"},{\"name\":\"_CARDINALITY\",\"type\":[\"null\",\"long\"],\"default\":null}]}]}],\"default\":null},{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null}]}";

    @TempDir
    java.nio.file.Path tmp;

    private final LocalFileIO fileIO = LocalFileIO.INSTANCE;
    private Path tableRoot;
    private Path manifestDir;
    private IndexManifestFile file;

    @BeforeEach
    void setUp() {
        tableRoot = new Path(tmp.toString() + "/db.db/t");
        manifestDir = new Path(tableRoot, "manifest");
        file = new IndexManifestFile(fileIO, manifestDir, "zstd", 1);
    }

    private static BinaryRow partition(String dt) {
        return new BinaryRowConverter(List.of(DataTypes.STRING())).toBinaryRow(new Object[] {BinaryString.fromString(dt)});
    }

    private static List<IndexManifestEntry> entries() {
        IndexFileMeta hash = new IndexFileMeta(IndexFileMeta.HASH_INDEX, "index-u-0", 12, 3, null, null);
        IndexFileMeta dv = new IndexFileMeta(IndexFileMeta.DELETION_VECTORS_INDEX, "index-u-1", 33, 2,
                List.of(new DeletionVectorMeta("data-a-0.parquet", 1, 24, 2L), new DeletionVectorMeta("data-b-1.parquet", 25, 8, null)),
                "s3://b/index-u-1");
        return List.of(new IndexManifestEntry(FileKind.ADD, partition("2024-01-01"), 0, hash),
                new IndexManifestEntry(FileKind.ADD, BinaryRow.EMPTY_ROW, 3, dv),
                new IndexManifestEntry(FileKind.DELETE, partition("x"), 1,
                        new IndexFileMeta(IndexFileMeta.DELETION_VECTORS_INDEX, "index-u-2", 1, 0, List.of(), null)));
    }

    @Test
    void schemaIsPaimonsExactly() {
        assertThat(IndexManifestSchema.SCHEMA.toString()).isEqualTo(SCHEMA);
    }

    @Test
    void roundTripsHashAndDeletionVectorEntries() throws Exception {
        String name = file.write(entries());
        assertThat(name).matches("index-manifest-[0-9a-f-]{36}-0");
        assertThat(file.read(name)).isEqualTo(entries());
        assertThat(file.write(List.of())).endsWith("-1");
    }

    @Test
    void readsOlderLayoutsAndSkipsNullRanges() throws Exception {
        Schema old = new Schema.Parser().parse(SCHEMA
                .replace(",{\"name\":\"_CARDINALITY\",\"type\":[\"null\",\"long\"],\"default\":null}", "")
                .replace(",{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null}", ""));
        Schema rangeSchema = old.getField("_DELETIONS_VECTORS_RANGES").schema().getTypes().get(1).getElementType().getTypes().get(1);
        GenericRecord range = new GenericData.Record(rangeSchema);
        range.put("f0", "data-a-0.parquet");
        range.put("f1", 1);
        range.put("f2", 24);
        GenericRecord r = record(old, 1);
        r.put("_DELETIONS_VECTORS_RANGES", Arrays.asList(range, null));
        write(old, "index-manifest-old-0", r);

        IndexManifestEntry entry = file.read("index-manifest-old-0").get(0);
        assertThat(entry.indexFile().deletionVectorRanges()).containsExactly(new DeletionVectorMeta("data-a-0.parquet", 1, 24, null));
        assertThat(entry.indexFile().externalPath()).isNull();
        assertThat(entry.bucket()).isEqualTo(2);
        assertThat(entry.partition()).isEqualTo(partition("p"));
    }

    /** Paimon 2.0's layout: a trailing nullable {@code _GLOBAL_INDEX} row (1.4's plus {@code _SOURCE_META}). */
    static final String SCHEMA_2_0 = SCHEMA.substring(0, SCHEMA.length() - 2)
            + ",{\"name\":\"_GLOBAL_INDEX\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"record__GLOBAL_INDEX\","
            + "\"fields\":[{\"name\":\"_ROW_RANGE_START\",\"type\":\"long\"},{\"name\":\"_ROW_RANGE_END\",\"type\":\"long\"},"
            + "{\"name\":\"_INDEX_FIELD_ID\",\"type\":\"int\"},{\"name\":\"_EXTRA_FIELD_IDS\",\"type\":[\"null\","
            + "{\"type\":\"array\",\"items\":\"int\"}],\"default\":null},{\"name\":\"_INDEX_META\",\"type\":[\"null\","
            + "\"bytes\"],\"default\":null},{\"name\":\"_SOURCE_META\",\"type\":[\"null\",\"bytes\"],\"default\":null}]}],"
            + "\"default\":null}]}";

    @Test
    void readsGlobalIndexEntriesOfNewerPaimonsAndNeverWritesThemAgain() throws Exception {
        Schema schema = new Schema.Parser().parse(SCHEMA_2_0);
        GenericRecord btree = record(schema, 1);
        btree.put("_INDEX_TYPE", "btree");
        GenericRecord global = new GenericData.Record(schema.getField("_GLOBAL_INDEX").schema().getTypes().get(1));
        global.put("_ROW_RANGE_START", 0L);
        global.put("_ROW_RANGE_END", 99L);
        global.put("_INDEX_FIELD_ID", 3);
        global.put("_INDEX_META", ByteBuffer.wrap(new byte[] {1}));
        btree.put("_GLOBAL_INDEX", global);
        write(schema, "index-manifest-20-0", btree);
        write(schema, "index-manifest-20-1", record(schema, 1));

        IndexFileMeta globalIndex = file.read("index-manifest-20-0").get(0).indexFile();
        assertThat(globalIndex.indexType()).isEqualTo("btree");
        assertThat(globalIndex.globalIndex()).isTrue();
        assertThat(globalIndex.newerFields()).containsExactly("_GLOBAL_INDEX");
        List<IndexManifestEntry> plain = file.read("index-manifest-20-1");
        assertThat(plain.get(0).indexFile().globalIndex()).isFalse();
        assertThat(plain.get(0).indexFile().newerFields()).containsExactly("_GLOBAL_INDEX");
        assertThatThrownBy(() -> file.write(plain))
                .isInstanceOf(dev.streamhouse.storage.UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot write index file index-x-0 (type 'DELETION_VECTORS') into an index manifest")
                .hasMessageContaining("[_GLOBAL_INDEX (added in Apache Paimon 1.4)]");
    }

    @Test
    void rejectsOtherVersions() throws Exception {
        Schema schema = IndexManifestSchema.SCHEMA;
        write(schema, "index-manifest-v2", record(schema, 2));
        assertThatThrownBy(() -> file.read("index-manifest-v2"))
                .isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining("unsupported index manifest _VERSION 2")
                .hasMessageContaining("index manifest " + new Path(manifestDir, "index-manifest-v2") + " of table " + tableRoot);
    }

    @Test
    void truncatedIndexManifestIsCorrupt() throws Exception {
        String name = file.write(entries());
        Path path = file.path(name);
        byte[] bytes = fileIO.readAllBytes(path);
        fileIO.overwrite(path, Arrays.copyOf(bytes, bytes.length - 3));
        assertThatThrownBy(() -> file.read(name)).isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining(path.toString());
        assertThat(fileIO.exists(path)).isTrue();
    }

    private static GenericRecord record(Schema schema, int version) {
        GenericRecord r = new GenericData.Record(schema);
        r.put("_VERSION", version);
        r.put("_KIND", 0);
        r.put("_PARTITION", ByteBuffer.wrap(partition("p").toSerializedBytes()));
        r.put("_BUCKET", 2);
        r.put("_INDEX_TYPE", "DELETION_VECTORS");
        r.put("_FILE_NAME", "index-x-0");
        r.put("_FILE_SIZE", 33L);
        r.put("_ROW_COUNT", 1L);
        return r;
    }

    private void write(Schema schema, String name, GenericRecord record) throws Exception {
        try (OutputStream out = fileIO.newOutputStream(new Path(manifestDir, name), true);
                DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
            w.setCodec(CodecFactory.zstandardCodec(1));
            w.create(schema, out);
            w.append(record);
        }
    }
}
