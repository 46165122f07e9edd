package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Options are checked before anything is written, in every place SQL can set them: CREATE TABLE,
 * ALTER TABLE SET, OPTIONS hints and CREATE CATALOG. What is not supported yet is refused saying so,
 * and a refused CREATE leaves nothing on disk; options without effect yet are accepted.
 */
class OptionValidationITCase extends CatalogITCaseBase {

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    /** Commits a new schema of table {@code name} with one more option, bypassing this store's checks. */
    private void storeOptionAsAnotherEngineWould(String name, String key, String value) throws Exception {
        Path root = new Path(warehouse.resolve("default.db").resolve(name).toString());
        SchemaManager schemas = new SchemaManager(LocalFileIO.INSTANCE, root, "default." + name);
        TableSchema latest = schemas.latest().orElseThrow();
        Map<String, String> options = new HashMap<>(latest.options());
        options.put(key, value);
        assertThat(schemas.commitNewVersion(new TableSchema(latest.version(), latest.id() + 1, latest.fields(),
                latest.highestFieldId(), latest.partitionKeys(), latest.primaryKeys(), options, null, 0L))).isTrue();
    }

    private String createError(String options) {
        Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> tEnv.executeSql(
                "CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH (" + options + ")"));
        assertThat(e).as("CREATE with %s", options).isNotNull();
        assertThat(Files.exists(warehouse.resolve("default.db").resolve("t")))
                .as("a refused CREATE (%s) leaves no table directory", options).isFalse();
        assertThat(tEnv.listTables()).doesNotContain("t");
        return rootCause(e).getMessage();
    }

    @Test
    void createRefusesInvalidAndUnsupportedOptionsAndWritesNothing() {
        assertThat(createError("'merge-engine' = 'nope'"))
                .contains("Invalid value 'nope' for option 'merge-engine'").contains("deduplicate, partial-update");
        assertThat(createError("'fields.v.default-value' = 'x'"))
                .contains("Cannot create table default.t: option 'fields.v.default-value' is not supported yet");
        assertThat(createError("'changelog-producer' = 'lookup', 'merge-engine' = 'first-row', "
                + "'changelog-producer.row-deduplicate-ignore-fields' = 'nope'"))
                .contains("option 'changelog-producer.row-deduplicate-ignore-fields' names column 'nope'");
        assertThat(createError("'merge-engine' = 'first-row', 'changelog-producer' = 'full-compaction'"))
                .contains("'changelog-producer' = 'full-compaction' cannot be used with 'merge-engine' = 'first-row'");
        assertThat(createError("'deletion-vectors.enabled' = 'true', 'merge-engine' = 'first-row'"))
                .contains("option 'deletion-vectors.enabled' = 'true' cannot be used with 'merge-engine' = 'first-row'");
        assertThat(createError("'deletion-vectors.enabled' = 'true', 'changelog-producer' = 'full-compaction'"))
                .contains("option 'deletion-vectors.enabled' = 'true' cannot be used with 'changelog-producer' = "
                        + "'full-compaction'");
        assertThat(createError("'write-buffer-size' = '-1'"))
                .contains("Invalid value '-1' for option 'write-buffer-size'");
        assertThat(createError("'snapshot.num-retained.min' = '0'"))
                .contains("'snapshot.num-retained.min': it must be at least 1");
        assertThat(createError("'s3.secret-key' = 'hunter2'"))
                .contains("'s3.secret-key' holds a credential").doesNotContain("hunter2");
    }

    @Test
    void optionsWithoutEffectAndUnknownKeysAreAccepted() {
        sql("CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ("
                + "'snapshot.num-retained.max' = '5', 'snapshot.num-retained.min' = '2', 'my.own.key' = 'x')");
        assertThat(storage().getTable(Identifier.of("default", "t")).options())
                .containsEntry("snapshot.num-retained.max", "5").containsEntry("my.own.key", "x");
    }

    @Test
    void alterRefusesWhatCreateRefuses() {
        sql("CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket' = '1')");
        assertThatThrownBy(() -> tEnv.executeSql("ALTER TABLE t SET ('write-buffer-size' = '-1')"))
                .satisfies(e -> assertThat(rootCause(e).getMessage())
                        .contains("Cannot alter table default.t: Invalid value '-1' for option 'write-buffer-size'"));
        assertThatThrownBy(() -> tEnv.executeSql("ALTER TABLE t SET ('scan.fallback-branch' = 'x')"))
                .satisfies(e -> assertThat(rootCause(e).getMessage())
                        .contains("option 'scan.fallback-branch' is not supported yet"));
        sql("ALTER TABLE t SET ('snapshot.time-retained' = '2 h')");
        assertThat(storage().getTable(Identifier.of("default", "t")).options())
                .containsEntry("snapshot.time-retained", "2 h").doesNotContainKey("write-buffer-size");
    }

    @Test
    void hintsThatWouldChangeTheResultAreRefused() {
        sql("CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket' = '1')");
        sql("INSERT INTO t VALUES (1, 'a')");
        for (String[] hint : new String[][] {
                {"'scan.fallback-branch' = 'b2'", "option 'scan.fallback-branch' is not supported yet"},
                {"'scan.watermark' = '5'",
                        "option 'scan.watermark' is not supported yet"},
                {"'scan.snapshot-id' = 'x'", "Invalid value 'x' for option 'scan.snapshot-id'"},
                {"'merge-engine' = 'first-row'", "option 'merge-engine' cannot be changed by dynamic options"}}) {
            assertThatThrownBy(() -> rows("SELECT * FROM t /*+ OPTIONS(" + hint[0] + ") */"))
                    .as(hint[0]).satisfies(e -> assertThat(rootCause(e).getMessage())
                            .contains("Cannot use table default.t with dynamic options").contains(hint[1]));
        }
        assertThat(rows("SELECT * FROM t /*+ OPTIONS('scan.snapshot-id' = '1') */")).containsExactly("+I[1, a]");
    }

    @Test
    void catalogOptionsAreChecked() {
        for (String[] option : new String[][] {
                {"'metastore' = 'rest'", "option 'metastore' is not supported yet (set to 'rest')"},
                {"'table-default.scan.fallback-branch' = 'x'",
                        "option 'table-default.scan.fallback-branch' is not supported yet"},
                {"'table-default.bucket' = 'two'", "Invalid value 'two' for option 'table-default.bucket'"}}) {
            assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG c2 WITH ('type' = 'paimon', 'warehouse' = '"
                    + warehouseUri() + "', " + option[0] + ")"))
                    .as(option[0]).satisfies(e -> assertThat(rootCause(e).getMessage())
                            .contains(option[1]));
        }
        tEnv.executeSql("CREATE CATALOG c3 WITH ('type' = 'paimon', 'warehouse' = '" + warehouseUri()
                + "', 'disable-create-table-in-default-db' = 'true', 'cache-enabled' = 'false')");
        assertThatThrownBy(() -> tEnv.executeSql("CREATE TABLE c3.`default`.t (id INT)"))
                .satisfies(e -> assertThat(rootCause(e).getMessage())
                        .contains("'disable-create-table-in-default-db' = true"));
        tEnv.executeSql("CREATE DATABASE c3.other");
        tEnv.executeSql("CREATE TABLE c3.other.t (id INT)");
    }

    @Test
    void aStoredCredentialIsNeverShown() throws Exception {
        // A table another engine created with a credential among its options.
        sql("CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket' = '1')");
        storeOptionAsAnotherEngineWould("t", "fs.s3a.secret.key", "hunter2");

        List<String> shown = rows("SELECT * FROM `t$options`");
        assertThat(shown).contains("+I[fs.s3a.secret.key, ******]").noneMatch(r -> r.contains("hunter2"));
        assertThat(String.join("\n", rows("SHOW CREATE TABLE t"))).doesNotContain("hunter2");
        assertThat(String.join("\n", rows("SELECT * FROM `t$schemas`"))).doesNotContain("hunter2");
        // Reading still works: the masked value is not taken for a dynamic option.
        sql("INSERT INTO t VALUES (1, 'a')");
        assertThat(rows("SELECT * FROM t")).containsExactly("+I[1, a]");
    }

    @Test
    void aRunTimeFailureOfAnInsertShowsItsRealCause() {
        sql("CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket' = '1')");
        for (boolean dmlSync : new boolean[] {false, true}) {
            tEnv.getConfig().set("table.dml-sync", String.valueOf(dmlSync));
            Throwable e = org.assertj.core.api.Assertions.catchThrowable(
                    () -> tEnv.executeSql("INSERT INTO t SELECT CAST('abc' AS INT), 'x'").await());
            assertThat(e).as("dml-sync %s", dmlSync).isNotNull();
            assertThat(rootCause(e).toString()).as("dml-sync %s", dmlSync)
                    .contains("NumberFormatException").contains("'abc'");
        }
    }

    @Test
    void paimonTablesWithFeaturesWeLackAreRefusedInSql() throws Exception {
        sql("CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket' = '1')");
        storeOptionAsAnotherEngineWould("t", "index-file-in-data-file-dir", "true");
        assertThatThrownBy(() -> rows("SELECT * FROM t"))
                .satisfies(e -> assertThat(rootCause(e))
                        .isInstanceOf(UnsupportedTableFeatureException.class)
                        .hasMessageContaining("Cannot read table default.t: it uses option "
                                + "'index-file-in-data-file-dir' = 'true'"));
        assertThatThrownBy(() -> sql("INSERT INTO t VALUES (1, 'a')"))
                .satisfies(e -> assertThat(rootCause(e).getMessage())
                        .contains("Cannot write to table default.t"));
    }

    @Test
    void tablesAndOptionsOfNewerPaimonsAreReadOrRefusedInSqlNamingTheRelease() throws Exception {
        sql("CREATE TABLE n (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket' = '1')");
        sql("INSERT INTO n VALUES (1, 'a'), (2, 'b')");
        // Paimon 2.0's snapshot members do not change the rows: read, but the table is not written.
        java.nio.file.Path snapshot = warehouse.resolve("default.db").resolve("n").resolve("snapshot")
                .resolve("snapshot-1");
        String json = Files.readString(snapshot);
        Files.writeString(snapshot, json.replaceFirst("\\{", "{\n  \"uuid\" : \"8d0e6f0a-5b0e-4f59-9c55-3b8e5c0f7a11\","));
        assertThat(sortedRows("SELECT * FROM n")).containsExactly("+I[1, a]", "+I[2, b]");
        assertThatThrownBy(() -> sql("INSERT INTO n VALUES (3, 'c')"))
                .satisfies(e -> assertThat(rootCause(e))
                        .isInstanceOf(UnsupportedTableFeatureException.class)
                        .hasMessageContaining("Cannot write to table default.n: it was last written by a newer Paimon")
                        .hasMessageContaining("uuid (added in Apache Paimon 2.0)"));

        assertThatThrownBy(() -> rows("SELECT * FROM n /*+ OPTIONS('deletion-vectors.merge-on-read' = 'true') */"))
                .satisfies(e -> assertThat(rootCause(e).getMessage())
                        .contains("option 'deletion-vectors.merge-on-read' = 'true' is not supported (added in "
                                + "Apache Paimon 2.0"));
        storeOptionAsAnotherEngineWould("n", "sequence.snapshot-ordering", "true");
        assertThatThrownBy(() -> rows("SELECT * FROM n"))
                .satisfies(e -> assertThat(rootCause(e))
                        .isInstanceOf(UnsupportedTableFeatureException.class)
                        .hasMessageContaining("Cannot read table default.n: it uses option 'sequence.snapshot-ordering' "
                                + "= 'true' (added in Apache Paimon 2.0;"));
    }

    @Test
    void deletionVectorTablesAreWrittenCompactedAndReadInSql() throws Exception {
        sql("CREATE TABLE dv (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket' = '1', "
                + "'deletion-vectors.enabled' = 'true')");
        sql("INSERT INTO dv VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        rows("CALL sys.compact(`table` => 'default.dv', compact_strategy => 'full')");
        sql("INSERT INTO dv VALUES (2, 'b2')");
        // The commit moved the new level-0 file up and marked the older version of key 2 deleted in the
        // file below, which stays: batch reads read both files raw.
        assertThat(rows("SELECT * FROM dv")).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b2]", "+I[3, c]");
        assertThat(rows("SELECT level FROM `dv$files`")).hasSize(2).doesNotContain("+I[0]");
        rows("CALL sys.compact(`table` => 'default.dv', compact_strategy => 'full')");
        assertThat(rows("SELECT * FROM dv")).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b2]", "+I[3, c]");
        assertThat(rows("SELECT record_count FROM `dv$files`")).containsExactly("+I[3]");
    }
}
