package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.NewerPaimonFeatures;
import dev.streamhouse.storage.UnsupportedTableFeatureException;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.storage.schema.MetadataJson;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Set;
import java.util.List;
import java.util.ArrayList;
import java.util.Map;

/**
 * Converts {@link Snapshot} to and from the JSON of {@code snapshot/snapshot-<id>} (docs/format.md §4.1).
 *
 * <p>Writing uses Paimon's member order and omission rules: {@code baseManifestList},
 * {@code deltaManifestList} and {@code changelogManifestList} are always written (the latter as
 * {@code null} when absent); the {@code *Size} members, {@code indexManifest}, {@code logOffsets},
 * {@code totalRecordCount}, {@code deltaRecordCount}, {@code changelogRecordCount}, {@code watermark},
 * {@code statistics} and {@code nextRowId} are omitted when null; {@code properties} is omitted when
 * null or empty. An empty {@code logOffsets} map is written as {@code { }}, as Paimon does.
 *
 * <p>Reading refuses a {@code version} above {@link Snapshot#CURRENT_VERSION} and members this class
 * does not know (both written by a newer Paimon) with an {@link UnsupportedTableFeatureException},
 * except the members of {@link NewerPaimonFeatures#SNAPSHOT_MEMBERS} ({@code uuid}, {@code operation},
 * {@code writerVersion}), which do not change the snapshot's rows: they are skipped and their names kept
 * in {@link Snapshot#newerMembers()}, and writing such a snapshot is refused, so they are never dropped.
 * A missing {@code version} is 1; missing optional members are null ({@code logOffsets}, which Paimon
 * 1.4 no longer writes, among them). {@code id}, {@code schemaId}, {@code baseManifestList}, {@code deltaManifestList},
 * {@code commitUser}, {@code commitIdentifier}, {@code commitKind} and {@code timeMillis} are required.
 * Malformed input fails with an {@link IllegalArgumentException} saying what is wrong (callers add
 * the file name).
 */
public final class SnapshotSerializer {
    /** Every member of a version-3 snapshot (Paimon 1.3). */
    private static final Set<String> KNOWN_MEMBERS = Set.of("version", "id", "schemaId", "baseManifestList",
            "baseManifestListSize", "deltaManifestList", "deltaManifestListSize", "changelogManifestList",
            "changelogManifestListSize", "indexManifest", "commitUser", "commitIdentifier", "commitKind", "timeMillis",
            "logOffsets", "totalRecordCount", "deltaRecordCount", "changelogRecordCount", "watermark", "statistics",
            "properties", "nextRowId");

    private SnapshotSerializer() {}

    public static String toJson(Snapshot s) {
        return toJson(s, g -> { });
    }

    /**
     * The snapshot's JSON with more members after the snapshot's own ones, e.g. the retention
     * members of a tag file (docs/format.md §11.1).
     *
     * @param extraMembers writes members (names and values) into the open object
     */
    public static String toJson(Snapshot s, MetadataJson.Body extraMembers) {
        if (!s.newerMembers().isEmpty()) {
            throw new UnsupportedTableFeatureException("Cannot write snapshot " + s.id() + " again: it was written by "
                    + "a newer Paimon with the members " + NewerPaimonFeatures.describe(s.newerMembers(),
                    NewerPaimonFeatures.SNAPSHOT_MEMBERS) + ", which this store would drop");
        }
        return MetadataJson.render(g -> {
            g.writeStartObject();
            g.writeNumberField("version", s.version());
            g.writeNumberField("id", s.id());
            g.writeNumberField("schemaId", s.schemaId());
            g.writeStringField("baseManifestList", s.baseManifestList());
            writeOptional(g, "baseManifestListSize", s.baseManifestListSize());
            g.writeStringField("deltaManifestList", s.deltaManifestList());
            writeOptional(g, "deltaManifestListSize", s.deltaManifestListSize());
            g.writeStringField("changelogManifestList", s.changelogManifestList());
            writeOptional(g, "changelogManifestListSize", s.changelogManifestListSize());
            if (s.indexManifest() != null) {
                g.writeStringField("indexManifest", s.indexManifest());
            }
            g.writeStringField("commitUser", s.commitUser());
            g.writeNumberField("commitIdentifier", s.commitIdentifier());
            g.writeStringField("commitKind", s.commitKind().name());
            g.writeNumberField("timeMillis", s.timeMillis());
            if (s.logOffsets() != null) {
                g.writeObjectFieldStart("logOffsets");
                for (Map.Entry<Integer, Long> e : s.logOffsets().entrySet()) {
                    g.writeNumberField(String.valueOf(e.getKey()), e.getValue());
                }
                g.writeEndObject();
            }
            writeOptional(g, "totalRecordCount", s.totalRecordCount());
            writeOptional(g, "deltaRecordCount", s.deltaRecordCount());
            writeOptional(g, "changelogRecordCount", s.changelogRecordCount());
            writeOptional(g, "watermark", s.watermark());
            if (s.statistics() != null) {
                g.writeStringField("statistics", s.statistics());
            }
            if (s.properties() != null && !s.properties().isEmpty()) {
                g.writeObjectFieldStart("properties");
                for (Map.Entry<String, String> e : s.properties().entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
            writeOptional(g, "nextRowId", s.nextRowId());
            extraMembers.write(g);
            g.writeEndObject();
        });
    }

    private static void writeOptional(com.fasterxml.jackson.core.JsonGenerator g, String name, Long value)
            throws java.io.IOException {
        if (value != null) {
            g.writeNumberField(name, value);
        }
    }

    /**
     * Parses snapshot JSON.
     *
     * @throws IllegalArgumentException if the text is not a valid snapshot document
     */
    public static Snapshot fromJson(String json) {
        JsonNode n = MetadataJson.parseObject(json);
        int version = n.has("version") ? MetadataJson.requireInt(n, "version") : 1;
        if (version > Snapshot.CURRENT_VERSION) {
            throw new UnsupportedTableFeatureException("it has version " + version + ", written by a newer Paimon; "
                    + "this store reads snapshot versions up to " + Snapshot.CURRENT_VERSION);
        }
        List<String> unknown = new ArrayList<>();
        List<String> newer = new ArrayList<>();
        n.fieldNames().forEachRemaining(name -> {
            if (NewerPaimonFeatures.SNAPSHOT_MEMBERS.containsKey(name)) {
                newer.add(name);
            } else if (!KNOWN_MEMBERS.contains(name)) {
                unknown.add(name);
            }
        });
        if (!unknown.isEmpty()) {
            throw new UnsupportedTableFeatureException("it has the members " + unknown + ", which this store does "
                    + "not know (added by a newer Paimon than 1.3); reading it could misread the table");
        }
        return new Snapshot(
                version,
                MetadataJson.requireLong(n, "id"),
                MetadataJson.requireLong(n, "schemaId"),
                MetadataJson.requireString(n, "baseManifestList"),
                MetadataJson.optionalLong(n, "baseManifestListSize"),
                MetadataJson.requireString(n, "deltaManifestList"),
                MetadataJson.optionalLong(n, "deltaManifestListSize"),
                MetadataJson.optionalString(n, "changelogManifestList"),
                MetadataJson.optionalLong(n, "changelogManifestListSize"),
                MetadataJson.optionalString(n, "indexManifest"),
                MetadataJson.requireString(n, "commitUser"),
                MetadataJson.requireLong(n, "commitIdentifier"),
                commitKind(MetadataJson.requireString(n, "commitKind")),
                MetadataJson.requireLong(n, "timeMillis"),
                logOffsets(n.get("logOffsets")),
                MetadataJson.optionalLong(n, "totalRecordCount"),
                MetadataJson.optionalLong(n, "deltaRecordCount"),
                MetadataJson.optionalLong(n, "changelogRecordCount"),
                MetadataJson.optionalLong(n, "watermark"),
                MetadataJson.optionalString(n, "statistics"),
                properties(n.get("properties")),
                MetadataJson.optionalLong(n, "nextRowId"),
                newer);
    }

    private static CommitKind commitKind(String text) {
        try {
            return CommitKind.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown commitKind '" + text + "'", e);
        }
    }

    private static Map<Integer, Long> logOffsets(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("field 'logOffsets' must be an object");
        }
        Map<Integer, Long> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            int bucket;
            try {
                bucket = Integer.parseInt(e.getKey());
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("logOffsets key '" + e.getKey() + "' is not a bucket number", ex);
            }
            if (!e.getValue().isIntegralNumber() || !e.getValue().canConvertToLong()) {
                throw new IllegalArgumentException("logOffsets value of bucket " + bucket + " is not a long");
            }
            out.put(bucket, e.getValue().longValue());
        }
        return out;
    }

    private static Map<String, String> properties(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("field 'properties' must be an object");
        }
        Map<String, String> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new IllegalArgumentException("property '" + e.getKey() + "' must be a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
