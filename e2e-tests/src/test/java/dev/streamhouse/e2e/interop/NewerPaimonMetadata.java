package dev.streamhouse.e2e.interop;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Turns a table Apache Paimon 1.3.1 wrote into the metadata a newer Paimon release writes for the same
 * table, following the newer releases' format definitions (there is no 1.4+ jar here):
 * <ul>
 *   <li>1.4: manifest lists get the trailing nullable fields {@code _MIN_ROW_ID}/{@code _MAX_ROW_ID}
 *       (BIGINT); index manifests the trailing nullable row {@code _GLOBAL_INDEX}
 *       ({@code _ROW_RANGE_START} BIGINT, {@code _ROW_RANGE_END} BIGINT, {@code _INDEX_FIELD_ID} INT,
 *       {@code _EXTRA_FIELD_IDS} ARRAY&lt;INT&gt;, {@code _INDEX_META} BYTES); snapshots lose {@code logOffsets}.
 *   <li>2.0: as 1.4, {@code _GLOBAL_INDEX} also has {@code _SOURCE_META} BYTES, and snapshots have
 *       {@code uuid} (after {@code version}) and {@code operation} (last).
 * </ul>
 * Avro files are rewritten with Avro's generic API keeping their codec; snapshot sizes of rewritten
 * manifest lists are updated.
 */
final class NewerPaimonMetadata {
    enum Release { PAIMON_1_4, PAIMON_2_0 }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path table;
    private final Set<String> rewritten = new HashSet<>();

    NewerPaimonMetadata(Path table) {
        this.table = table;
    }

    /** Rewrites every snapshot of the table and its manifest lists and index manifests as {@code release} writes them. */
    void convert(Release release) throws IOException {
        for (Path snapshot : snapshots()) {
            ObjectNode json = (ObjectNode) JSON.readTree(snapshot.toFile());
            for (String list : List.of("baseManifestList", "deltaManifestList", "changelogManifestList")) {
                if (json.hasNonNull(list)) {
                    String name = json.get(list).asText();
                    if (rewritten.add(name)) {
                        addRowIdRange(manifest(name), true);
                    }
                    if (json.has(list + "Size")) {
                        json.put(list + "Size", Files.size(manifest(name)));
                    }
                }
            }
            if (json.hasNonNull("indexManifest") && rewritten.add(json.get("indexManifest").asText())) {
                addGlobalIndexField(manifest(json.get("indexManifest").asText()), release, null);
            }
            json.remove("logOffsets");
            if (release == Release.PAIMON_2_0) {
                json = withUuidAndOperation(json);
            }
            Files.writeString(snapshot, JSON.writeValueAsString(json));
        }
    }

    /** Adds {@code members} to the JSON of the latest snapshot (after the existing ones). */
    void addSnapshotMembers(Map<String, Object> members) throws IOException {
        Path snapshot = latestSnapshot();
        ObjectNode json = (ObjectNode) JSON.readTree(snapshot.toFile());
        members.forEach((k, v) -> json.set(k, JSON.valueToTree(v)));
        Files.writeString(snapshot, JSON.writeValueAsString(json));
    }

    /**
     * Adds a global index of {@code type} over the rows of the latest snapshot: an index file in
     * {@code index/} and an entry with {@code _GLOBAL_INDEX} set in the snapshot's index manifest (which
     * must exist, e.g. a dynamic-bucket table's), rewritten with the {@code release}'s layout.
     */
    void addGlobalIndex(Release release, String type, long rowCount) throws IOException {
        ObjectNode json = (ObjectNode) JSON.readTree(latestSnapshot().toFile());
        Path indexManifest = manifest(json.get("indexManifest").asText());
        String fileName = type + "-global-index-" + UUID.randomUUID() + ".index";
        byte[] content = "an index this store never reads".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Files.write(table.resolve("index").resolve(fileName), content);
        addGlobalIndexField(indexManifest, release, schema -> {
            GenericRecord entry = new GenericData.Record(schema);
            entry.put("_VERSION", 1);
            entry.put("_KIND", 0);
            entry.put("_BUCKET", 0);
            entry.put("_INDEX_TYPE", type);
            entry.put("_FILE_NAME", fileName);
            entry.put("_FILE_SIZE", (long) content.length);
            entry.put("_ROW_COUNT", rowCount);
            Schema globalSchema = nonNull(schema.getField("_GLOBAL_INDEX").schema());
            GenericRecord global = new GenericData.Record(globalSchema);
            global.put("_ROW_RANGE_START", 0L);
            global.put("_ROW_RANGE_END", rowCount - 1);
            global.put("_INDEX_FIELD_ID", 0);
            global.put("_EXTRA_FIELD_IDS", List.of(1));
            global.put("_INDEX_META", ByteBuffer.wrap(new byte[] {1, 2, 3}));
            if (globalSchema.getField("_SOURCE_META") != null) {
                global.put("_SOURCE_META", ByteBuffer.wrap(new byte[] {4}));
            }
            entry.put("_GLOBAL_INDEX", global);
            return entry;
        });
    }

    /** The latest snapshot's base manifest list with a trailing field {@code name} (nullable or not) added. */
    void addManifestListField(String name, boolean nullable) throws IOException {
        ObjectNode json = (ObjectNode) JSON.readTree(latestSnapshot().toFile());
        Path list = manifest(json.get("baseManifestList").asText());
        Schema type = nullable ? nullable(Schema.create(Schema.Type.LONG)) : Schema.create(Schema.Type.LONG);
        rewrite(list, List.of(new Schema.Field(name, type, null, nullable ? Schema.Field.NULL_DEFAULT_VALUE : null)),
                r -> r.put(name, 7L), null);
        json.put("baseManifestListSize", Files.size(list));
        Files.writeString(latestSnapshot(), JSON.writeValueAsString(json));
    }

    private void addRowIdRange(Path list, boolean values) throws IOException {
        Schema nullableLong = nullable(Schema.create(Schema.Type.LONG));
        long[] next = {0};
        rewrite(list, List.of(
                new Schema.Field("_MIN_ROW_ID", nullableLong, null, Schema.Field.NULL_DEFAULT_VALUE),
                new Schema.Field("_MAX_ROW_ID", nullableLong, null, Schema.Field.NULL_DEFAULT_VALUE)),
                r -> {
                    if (values) {
                        long rows = (Long) r.get("_NUM_ADDED_FILES") * 10;
                        r.put("_MIN_ROW_ID", next[0]);
                        r.put("_MAX_ROW_ID", next[0] + rows);
                        next[0] += rows + 1;
                    }
                }, null);
    }

    private void addGlobalIndexField(Path indexManifest, Release release,
            Function<Schema, GenericRecord> extraEntry) throws IOException {
        List<Schema.Field> global = new ArrayList<>(List.of(
                new Schema.Field("_ROW_RANGE_START", Schema.create(Schema.Type.LONG)),
                new Schema.Field("_ROW_RANGE_END", Schema.create(Schema.Type.LONG)),
                new Schema.Field("_INDEX_FIELD_ID", Schema.create(Schema.Type.INT)),
                new Schema.Field("_EXTRA_FIELD_IDS", nullable(Schema.createArray(Schema.create(Schema.Type.INT))), null,
                        Schema.Field.NULL_DEFAULT_VALUE),
                new Schema.Field("_INDEX_META", nullable(Schema.create(Schema.Type.BYTES)), null,
                        Schema.Field.NULL_DEFAULT_VALUE)));
        if (release == Release.PAIMON_2_0) {
            global.add(new Schema.Field("_SOURCE_META", nullable(Schema.create(Schema.Type.BYTES)), null,
                    Schema.Field.NULL_DEFAULT_VALUE));
        }
        Schema globalRecord = Schema.createRecord("record__GLOBAL_INDEX", null, "org.apache.paimon.avro.generated",
                false, global);
        rewrite(indexManifest, List.of(new Schema.Field("_GLOBAL_INDEX", nullable(globalRecord), null,
                Schema.Field.NULL_DEFAULT_VALUE)), r -> { }, extraEntry);
    }

    /**
     * Rewrites an Avro container file with {@code extra} fields after its own, copying every record (then
     * {@code fill}) and appending the record {@code extraRecord} makes, if given. The partition of the
     * extra record is the first record's.
     */
    private static void rewrite(Path file, List<Schema.Field> extra, java.util.function.Consumer<GenericRecord> fill,
            Function<Schema, GenericRecord> extraRecord) throws IOException {
        List<GenericRecord> records = new ArrayList<>();
        Schema old;
        String codec;
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
            old = reader.getSchema();
            codec = reader.getMetaString("avro.codec");
            reader.forEach(records::add);
        }
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : old.getFields()) {
            fields.add(new Schema.Field(f, f.schema()));
        }
        for (Schema.Field f : extra) {
            if (old.getField(f.name()) == null) {
                fields.add(new Schema.Field(f, f.schema()));
            }
        }
        Schema schema = Schema.createRecord(old.getName(), old.getDoc(), old.getNamespace(), false, fields);
        File tmp = file.resolveSibling(file.getFileName() + ".rewrite").toFile();
        try (DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
            writer.setCodec(codec == null ? CodecFactory.nullCodec() : CodecFactory.fromString(codec));
            writer.create(schema, tmp);
            for (GenericRecord r : records) {
                GenericRecord copy = new GenericData.Record(schema);
                for (Schema.Field f : old.getFields()) {
                    copy.put(f.name(), r.get(f.name()));
                }
                fill.accept(copy);
                writer.append(copy);
            }
            if (extraRecord != null) {
                GenericRecord added = extraRecord.apply(schema);
                added.put("_PARTITION", records.get(0).get("_PARTITION"));
                writer.append(added);
            }
        }
        Files.move(tmp.toPath(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Paimon 2.0's member order: {@code uuid} right after {@code version}, {@code operation} last. */
    private static ObjectNode withUuidAndOperation(ObjectNode json) {
        ObjectNode out = JSON.createObjectNode();
        Iterator<Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it = json.fields();
        while (it.hasNext()) {
            Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e = it.next();
            out.set(e.getKey(), e.getValue());
            if (e.getKey().equals("version")) {
                out.put("uuid", UUID.randomUUID().toString());
            }
        }
        out.put("operation", "WRITE");
        return out;
    }

    private Path manifest(String name) {
        return table.resolve("manifest").resolve(name);
    }

    private List<Path> snapshots() throws IOException {
        try (Stream<Path> files = Files.list(table.resolve("snapshot"))) {
            return files.filter(p -> p.getFileName().toString().matches("snapshot-\\d+")).sorted().toList();
        }
    }

    private Path latestSnapshot() throws IOException {
        Map<Long, Path> byId = new LinkedHashMap<>();
        for (Path p : snapshots()) {
            byId.put(Long.parseLong(p.getFileName().toString().substring("snapshot-".length())), p);
        }
        return byId.get(byId.keySet().stream().max(Long::compare).orElseThrow());
    }

    private static Schema nullable(Schema type) {
        return Schema.createUnion(Schema.create(Schema.Type.NULL), type);
    }

    private static Schema nonNull(Schema union) {
        return union.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElseThrow();
    }
}
