package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.interop.NewerPaimonMetadata.Release;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.SchemaChange;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables as Apache Paimon 1.4 and 2.0 write them (built from tables the 1.3.1 oracle writes, with the
 * metadata the newer releases add, {@link NewerPaimonMetadata}): read with the rows the oracle reads
 * from the original table where nothing skipped changes them, never written, and refused by name
 * (table, feature, release) where the rows would differ.
 */
class NewerPaimonTablesInteropTest extends InteropTestBase {
    private static final String DB = "n";
    private static final TableSpec PK = TableSpec.of("id", "INT", "v", "STRING", "n", "BIGINT")
            .withPrimaryKeys("id").withOption("bucket", "1");
    private static final TableSpec DYNAMIC = PK.withOption("bucket", "-1");
    private static final TableSpec APPEND = TableSpec.of("id", "INT", "v", "STRING", "n", "BIGINT");

    NewerPaimonTablesInteropTest() {
        super(DB);
    }

    private static CanonicalRow row(int id, String v, long n) {
        return CanonicalRow.of(id, v, n);
    }

    /** A primary-key table with a few commits and a compaction, as Paimon 1.3.1 wrote it; returns its rows. */
    private List<CanonicalRow> paimonWrites(String name, TableSpec spec) {
        paimon.createTable(DB, name, spec);
        paimon.write(DB, name, List.of(row(1, "a", 1), row(2, "b", 2), row(3, "c", 3)));
        paimon.write(DB, name, List.of(row(2, "b2", 20), row(4, "d", 4)));
        if (spec.primaryKeys().isEmpty()) {
            paimon.write(DB, name, List.of(row(5, "e", 5)));
        } else {
            paimon.compactAll(DB, name, true);
            paimon.write(DB, name, List.of(row(1, "a3", 30)));
        }
        return paimon.readAll(DB, name);
    }

    private NewerPaimonMetadata metadata(String name) {
        return new NewerPaimonMetadata(paimon.tablePath(DB, name));
    }

    private void assertWriteRefused(String name, String... fragments) throws Exception {
        OptionalLong before = paimon.latestSnapshotId(DB, name);
        List<Path> filesBefore = files(name);
        var thrown = assertThatThrownBy(() -> ours.write(DB, name, List.of(row(9, "z", 9))))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot write to table " + DB + "." + name);
        for (String fragment : fragments) {
            thrown.hasMessageContaining(fragment);
        }
        assertThat(paimon.latestSnapshotId(DB, name)).as("no snapshot was added").isEqualTo(before);
        assertThat(files(name)).as("no file was written").isEqualTo(filesBefore);
    }

    private List<Path> files(String name) throws Exception {
        try (var walk = Files.walk(paimon.tablePath(DB, name))) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }

    @Test
    void aTableAsPaimon14WritesItIsReadButNotWritten() throws Exception {
        List<CanonicalRow> expected = paimonWrites("t14", PK);
        List<List<CanonicalRow>> expectedStream = ours.streamPlansUntilLatest(DB, "t14", Map.of());
        metadata("t14").convert(Release.PAIMON_1_4);

        assertThat(ours.readAll(DB, "t14")).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(ours.readSnapshot(DB, "t14", 1)).containsExactlyInAnyOrder(row(1, "a", 1), row(2, "b", 2),
                row(3, "c", 3));
        assertThat(ours.streamPlansUntilLatest(DB, "t14", Map.of())).isEqualTo(expectedStream);
        assertWriteRefused("t14", "it was last written by a newer Paimon than 1.3",
                "has the fields [_MAX_ROW_ID (added in Apache Paimon 1.4), _MIN_ROW_ID (added in Apache Paimon 1.4)]",
                "write it with that Paimon release");
        assertThat(ours.readAll(DB, "t14")).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aTableAsPaimon20WritesItIsReadButNotWrittenNorTagged() throws Exception {
        List<CanonicalRow> expected = paimonWrites("t20", APPEND);
        metadata("t20").convert(Release.PAIMON_2_0);
        assertThat(Files.readString(paimon.tablePath(DB, "t20").resolve("snapshot/snapshot-3")))
                .contains("\"uuid\"").contains("\"operation\" : \"WRITE\"").doesNotContain("logOffsets");

        assertThat(ours.readAll(DB, "t20")).containsExactlyInAnyOrderElementsOf(expected);
        assertWriteRefused("t20", "its snapshot 3 has the members [uuid (added in Apache Paimon 2.0), "
                + "operation (added in Apache Paimon 2.0)]");
        // A tag is a copy of the snapshot's JSON: it would lose the uuid.
        assertThatThrownBy(() -> TableTags.of(ours.table(DB, "t20")).create("kept", 3L, null))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot write snapshot 3 again")
                .hasMessageContaining("uuid (added in Apache Paimon 2.0)");
        assertThat(paimon.tablePath(DB, "t20").resolve("tag").resolve("tag-kept")).doesNotExist();
    }

    @Test
    void aCommitOnTopOfASnapshotANewerPaimonCommittedMeanwhileIsRefused() throws Exception {
        List<CanonicalRow> expected = paimonWrites("race", PK);
        dev.streamhouse.storage.table.Table table = ours.table(DB, "race");
        try (dev.streamhouse.storage.table.sink.TableWrite write = table.newWrite();
                dev.streamhouse.storage.table.sink.BatchTableCommit commit = table.newBatchCommit()) {
            for (var r : dev.streamhouse.e2e.oracle.OurRows.toOurs(List.of(row(7, "g", 7)), table.rowType())) {
                write.write(r);
            }
            var messages = write.prepareCommit();
            // Paimon 1.4 commits (here: rewrites the table's metadata as 1.4 writes it) before our commit.
            metadata("race").convert(Release.PAIMON_1_4);
            OptionalLong before = paimon.latestSnapshotId(DB, "race");
            assertThatThrownBy(() -> commit.commit(messages))
                    .isInstanceOf(UnsupportedTableFeatureException.class)
                    .hasMessageContaining("Cannot write to table " + DB + ".race: it was last written by a newer Paimon")
                    .hasMessageContaining("_MIN_ROW_ID (added in Apache Paimon 1.4)");
            assertThat(paimon.latestSnapshotId(DB, "race")).isEqualTo(before);
        }
        assertThat(ours.readAll(DB, "race")).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void snapshotMembersAloneAreSkippedByReadsAndStopWrites() throws Exception {
        List<CanonicalRow> expected = paimonWrites("w", APPEND);
        metadata("w").addSnapshotMembers(Map.of("writerVersion", "paimon-2.1-SNAPSHOT"));
        assertThat(ours.readAll(DB, "w")).containsExactlyInAnyOrderElementsOf(expected);
        assertWriteRefused("w", "writerVersion (added in Apache Paimon after 2.0 (unreleased))");
    }

    @Test
    void globalIndexesAreSkippedByReadsInBothReleasesAndStopWrites() throws Exception {
        for (Release release : Release.values()) {
            String name = "g_" + release.name().toLowerCase();
            List<CanonicalRow> expected = paimonWrites(name, DYNAMIC);
            List<List<CanonicalRow>> expectedStream = ours.streamPlansUntilLatest(DB, name, Map.of());
            metadata(name).convert(release);
            metadata(name).addGlobalIndex(release, "btree", expected.size());
            metadata(name).addGlobalIndex(release, "some-future-index", expected.size());

            assertThat(ours.readAll(DB, name)).as(release.name()).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(ours.streamPlansUntilLatest(DB, name, Map.of())).as(release.name()).isEqualTo(expectedStream);
            assertWriteRefused(name, "has the fields [_GLOBAL_INDEX (added in Apache Paimon 1.4)] "
                    + "(describing 2 global index file(s))");
            // The global index files are referenced by the index manifest: never orphans, however old.
            List<Path> indexFiles;
            try (var list = Files.list(paimon.tablePath(DB, name).resolve("index"))) {
                indexFiles = list.filter(p -> p.getFileName().toString().contains("-global-index-")).toList();
            }
            assertThat(indexFiles).hasSize(2);
            long twoDaysAgo = System.currentTimeMillis() - 2 * 86_400_000L;
            for (Path file : indexFiles) {
                Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(twoDaysAgo));
            }
            assertThat(TableOrphanFiles.of(ours.table(DB, name)).clean(twoDaysAgo + 86_400_000L, false)
                    .deletedFiles()).as(release.name()).isEmpty();
            assertThat(indexFiles).allMatch(Files::exists);
        }
    }

    @Test
    void fieldsThatAreNotKnownSkippableAreRefusedForReads() throws Exception {
        paimonWrites("unknown", PK);
        metadata("unknown").addManifestListField("_ROW_LINEAGE_SOMETHING", true);
        assertThatThrownBy(() -> ours.readAll(DB, "unknown"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot read manifest list")
                .hasMessageContaining("of table")
                .hasMessageContaining("[_ROW_LINEAGE_SOMETHING]");

        // A known name in a shape the newer release does not write (not nullable) cannot be told apart either.
        paimonWrites("required", PK);
        metadata("required").addManifestListField("_MIN_ROW_ID", false);
        assertThatThrownBy(() -> ours.readAll(DB, "required"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("[_MIN_ROW_ID]");
    }

    @Test
    void newColumnTypesAreRefusedNamingColumnTypeAndRelease() throws Exception {
        paimonWrites("blob", APPEND);
        replaceInSchema("blob", "\"type\" : \"STRING\"", "\"type\" : \"BLOB\"");
        assertThatThrownBy(() -> ours.readAll(DB, "blob"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot read schema file")
                .hasMessageContaining("of table")
                .hasMessageContaining("it has a column 'v' of type BLOB (added in Apache Paimon 1.4)");

        paimonWrites("vector", APPEND);
        replaceInSchema("vector", "\"type\" : \"STRING\"",
                "\"type\" : { \"type\" : \"VECTOR NOT NULL\", \"element\" : \"FLOAT\", \"length\" : 3 }");
        assertThatThrownBy(() -> ours.readAll(DB, "vector"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("it has a column 'v' of type VECTOR (added in Apache Paimon 1.4)");
    }

    @Test
    void optionsThatChangeReadsAreRefusedForReadsAndWrites() throws Exception {
        List<CanonicalRow> expected = paimonWrites("opts", PK);
        setOption("opts", "sequence.snapshot-ordering", "false");
        assertThat(ours.readAll(DB, "opts")).as("the neutral value reads as 1.3 does")
                .containsExactlyInAnyOrderElementsOf(expected);

        Map<String, List<String>> refused = Map.of(
                "sequence.snapshot-ordering", List.of("true", "2.0"),
                "deletion-vectors.merge-on-read", List.of("true", "2.0"),
                "postpone.merge-on-read", List.of("true", "2.0"),
                "chain-table.enabled", List.of("true", "1.4"),
                "scan.fallback-snapshot-branch", List.of("snap", "1.4"),
                "scan.fallback-delta-branch", List.of("delta", "1.4"));
        for (Map.Entry<String, List<String>> option : refused.entrySet()) {
            String value = option.getValue().get(0);
            setOption("opts", option.getKey(), value);
            assertThatThrownBy(() -> ours.readAll(DB, "opts")).as(option.getKey())
                    .isInstanceOf(UnsupportedTableFeatureException.class)
                    .hasMessageContaining("Cannot read table " + DB + ".opts: it uses option '" + option.getKey()
                            + "' = '" + value + "' (added in Apache Paimon " + option.getValue().get(1) + ";");
            assertWriteRefused("opts", "it uses option '" + option.getKey() + "'");
            paimon.catalog().alterTable(Identifier.create(DB, "opts"), SchemaChange.removeOption(option.getKey()), false);
        }
        assertThat(ours.readAll(DB, "opts")).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void newFileFormatsAreRefusedNamingTheRelease() throws Exception {
        paimonWrites("fmt", APPEND);
        for (Map.Entry<String, String> format : Map.of("blob", "1.4", "text", "1.4", "vortex", "2.0", "mosaic", "2.0",
                "row", "2.0").entrySet()) {
            setOptionInSchemaFile("fmt", "file.format", format.getKey());
            assertThatThrownBy(() -> ours.readAll(DB, "fmt")).as(format.getKey())
                    .isInstanceOf(UnsupportedTableFeatureException.class)
                    .hasMessageContaining("Cannot read table " + DB + ".fmt: it uses option 'file.format' = '"
                            + format.getKey() + "' (added in Apache Paimon " + format.getValue() + ")");
        }
    }

    private void setOption(String name, String key, String value) throws Exception {
        paimon.catalog().alterTable(Identifier.create(DB, name), SchemaChange.setOption(key, value), false);
    }

    /** Options Paimon 1.3.1 refuses to set (a file format it does not have), written into the schema file. */
    private void setOptionInSchemaFile(String name, String key, String value) throws Exception {
        Path schema = paimon.tablePath(DB, name).resolve("schema").resolve("schema-0");
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode json =
                (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(schema.toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("options")).put(key, value);
        Files.writeString(schema, mapper.writerWithDefaultPrettyPrinter().writeValueAsString(json));
    }

    private void replaceInSchema(String name, String from, String to) throws Exception {
        Path schema = paimon.tablePath(DB, name).resolve("schema").resolve("schema-0");
        String json = Files.readString(schema);
        assertThat(json).contains(from);
        Files.writeString(schema, json.replace(from, to));
    }
}
