package dev.streamhouse.storage.snapshot;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotSerializerTest {

    /** docs/format.md §4.5, written by Paimon 1.3.1. */
    static final String GOLDEN = "{\n"
            + "  \"version\" : 3,\n"
            + "  \"id\" : 2,\n"
            + "  \"schemaId\" : 0,\n"
            + "  \"baseManifestList\" : \"manifest-list-ef7b346f-3760-4066-81ea-2c4ce53bcac9-3\",\n"
            + "  \"baseManifestListSize\" : 989,\n"
            + "  \"deltaManifestList\" : \"manifest-list-ef7b346f-3760-4066-81ea-2c4ce53bcac9-4\",\n"
            + "  \"deltaManifestListSize\" : 989,\n"
            + "  \"changelogManifestList\" : \"manifest-list-ef7b346f-3760-4066-81ea-2c4ce53bcac9-5\",\n"
            + "  \"changelogManifestListSize\" : 989,\n"
            + "  \"commitUser\" : \"spike-user\",\n"
            + "  \"commitIdentifier\" : 8,\n"
            + "  \"commitKind\" : \"APPEND\",\n"
            + "  \"timeMillis\" : 1795969400309,\n"
            + "  \"logOffsets\" : { },\n"
            + "  \"totalRecordCount\" : 4,\n"
            + "  \"deltaRecordCount\" : 2,\n"
            + "  \"changelogRecordCount\" : 3,\n"
            + "  \"nextRowId\" : 0\n"
            + "}";

    static Snapshot golden() {
        String prefix = "manifest-list-ef7b346f-3760-4066-81ea-2c4ce53bcac9-";
        return new Snapshot(3, 2, 0, prefix + 3, 989L, prefix + 4, 989L, prefix + 5, 989L, null, "spike-user", 8,
                CommitKind.APPEND, 1795969400309L, Map.of(), 4L, 2L, 3L, null, null, null, 0L);
    }

    static Snapshot simple(long id) {
        return new Snapshot(3, id, 0, "manifest-list-u-" + (2 * id), 884L, "manifest-list-u-" + (2 * id + 1), 884L, null,
                null, null, "user", id, CommitKind.APPEND, 1000L + id, Map.of(), 0L, 0L, 0L, null, null, null, 0L);
    }

    @Test
    void writesPaimonsExampleByteForByte() {
        assertThat(SnapshotSerializer.toJson(golden())).isEqualTo(GOLDEN);
    }

    @Test
    void readsPaimonsExample() {
        assertThat(SnapshotSerializer.fromJson(GOLDEN)).isEqualTo(golden());
    }

    @Test
    void changelogListIsAlwaysWrittenAndOptionalMembersAreOmitted() {
        Snapshot allNull = new Snapshot(3, 1, 0, "base", null, "delta", null, null, null, null, "u", Long.MAX_VALUE,
                CommitKind.COMPACT, 5L, null, null, null, null, null, null, Map.of(), null);
        String json = SnapshotSerializer.toJson(allNull);
        assertThat(json).isEqualTo("{\n  \"version\" : 3,\n  \"id\" : 1,\n  \"schemaId\" : 0,\n"
                + "  \"baseManifestList\" : \"base\",\n  \"deltaManifestList\" : \"delta\",\n"
                + "  \"changelogManifestList\" : null,\n  \"commitUser\" : \"u\",\n"
                + "  \"commitIdentifier\" : 9223372036854775807,\n  \"commitKind\" : \"COMPACT\",\n  \"timeMillis\" : 5\n}");
        Snapshot read = SnapshotSerializer.fromJson(json);
        assertThat(read.properties()).isNull();
        assertThat(read).isEqualTo(new Snapshot(3, 1, 0, "base", null, "delta", null, null, null, null, "u",
                Long.MAX_VALUE, CommitKind.COMPACT, 5L, null, null, null, null, null, null, null, null));
    }

    @Test
    void everyMemberRoundTripsInPaimonsOrder() {
        Map<Integer, Long> offsets = new LinkedHashMap<>();
        offsets.put(0, 10L);
        offsets.put(3, -1L);
        Map<String, String> props = new LinkedHashMap<>();
        props.put("a", "1");
        props.put("b", "x\"y");
        Snapshot full = new Snapshot(3, 7, 2, "b", 1L, "d", 2L, "c", 3L, "index-manifest-x-0", "user", 42,
                CommitKind.ANALYZE, 99L, offsets, 100L, -3L, 0L, 1700000000000L, "stat-x-0", props, 12L);
        String json = SnapshotSerializer.toJson(full);
        assertThat(SnapshotSerializer.fromJson(json)).isEqualTo(full);
        assertThat(json).containsSubsequence("\"changelogManifestListSize\" : 3", "\"indexManifest\"", "\"commitUser\"",
                "\"logOffsets\" : {\n    \"0\" : 10,\n    \"3\" : -1\n  }", "\"changelogRecordCount\" : 0",
                "\"watermark\" : 1700000000000", "\"statistics\" : \"stat-x-0\"", "\"properties\"", "\"nextRowId\" : 12");
    }

    @Test
    void refusesMembersAndVersionsOfANewerPaimon() {
        String base = "{\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\",\"deltaManifestList\":\"d\","
                + "\"commitUser\":\"u\",\"commitIdentifier\":1,\"commitKind\":\"OVERWRITE\",\"timeMillis\":2";
        assertThatThrownBy(() -> SnapshotSerializer.fromJson(base + ",\"somethingNew\":{\"x\":[1,2]}}"))
                .isInstanceOf(dev.streamhouse.storage.UnsupportedTableFeatureException.class)
                .hasMessageContaining("[somethingNew]");
        assertThatThrownBy(() -> SnapshotSerializer.fromJson(base + ",\"version\":4}"))
                .isInstanceOf(dev.streamhouse.storage.UnsupportedTableFeatureException.class)
                .hasMessageContaining("version 4").hasMessageContaining("up to 3");
    }

    @Test
    void readsSnapshotsOfPaimon14And20ButNeverWritesThemAgain() {
        Snapshot expected = SnapshotSerializer.fromJson(GOLDEN);
        // 1.4 no longer writes logOffsets; 2.0 adds uuid (after version) and operation (last).
        String paimon20 = GOLDEN.replaceFirst("\"version\" : 3,", "\"version\" : 3,\n  \"uuid\" : "
                + "\"4f1c0c0e-7d61-4a8e-9d8e-0c4b1f9f2b11\",").replaceFirst("(?s),\\s*\"logOffsets\" : \\{[^}]*\\}", "")
                .replaceFirst("\\}\\s*$", ",\n  \"operation\" : \"WRITE\",\n  \"writerVersion\" : \"x\"\n}");
        assertThat(paimon20).contains("uuid").contains("operation").doesNotContain("logOffsets");
        Snapshot read = SnapshotSerializer.fromJson(paimon20);
        assertThat(read.newerMembers()).containsExactly("uuid", "operation", "writerVersion");
        assertThat(read.id()).isEqualTo(expected.id());
        assertThat(read.baseManifestList()).isEqualTo(expected.baseManifestList());
        assertThat(read.logOffsets()).isNull();
        assertThatThrownBy(() -> SnapshotSerializer.toJson(read))
                .isInstanceOf(dev.streamhouse.storage.UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot write snapshot " + read.id() + " again")
                .hasMessageContaining("uuid (added in Apache Paimon 2.0)")
                .hasMessageContaining("writerVersion (added in Apache Paimon after 2.0 (unreleased))");
    }

    @Test
    void readsOlderSnapshotsWithoutOptionalMembers() {
        String json = "{\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\",\"deltaManifestList\":\"d\","
                + "\"commitUser\":\"u\",\"commitIdentifier\":1,\"commitKind\":\"OVERWRITE\",\"timeMillis\":2}";
        Snapshot s = SnapshotSerializer.fromJson(json);
        assertThat(s.version()).isEqualTo(1);
        assertThat(s.commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(s.changelogManifestList()).isNull();
        assertThat(s.totalRecordCount()).isNull();
        assertThat(s.logOffsets()).isNull();
        assertThat(s.nextRowId()).isNull();
    }

    @Test
    void rejectsMissingRequiredMembersAndGarbage() {
        assertThatThrownBy(() -> SnapshotSerializer.fromJson(GOLDEN.replace("  \"commitUser\" : \"spike-user\",\n", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'commitUser'");
        assertThatThrownBy(() -> SnapshotSerializer.fromJson(GOLDEN.replace("APPEND", "MERGE")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("commitKind 'MERGE'");
        assertThatThrownBy(() -> SnapshotSerializer.fromJson(GOLDEN.substring(0, GOLDEN.length() - 30)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> SnapshotSerializer.fromJson(""))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
