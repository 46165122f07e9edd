package dev.streamhouse.flink.catalog.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.flink.catalog.testutils.TestData;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * System tables over a primary-key table written in two commits through the storage API:
 * <pre>
 *   commit 1: (1, 'a', 1.50, 2024-01-01), (2, NULL, 2.00, 2024-01-01), (3, 'c', 3.25, 2024-01-02)
 *   commit 2: (1, 'z', 9.99, 2024-01-01)
 * </pre>
 * Deterministic columns are compared exactly; sizes against the files on disk; times against the
 * test's clock.
 */
class SystemTablesITCase extends CatalogITCaseBase {
    private LocalDateTime before;
    private FileStoreTable orders;

    @BeforeEach
    void writeOrders() throws Exception {
        before = LocalDateTime.now().minusSeconds(1);
        sql("CREATE TABLE orders (id INT, name STRING, amount DECIMAL(10, 2), dt STRING, "
                + "PRIMARY KEY (id, dt) NOT ENFORCED) COMMENT 'all orders' PARTITIONED BY (dt) WITH ('bucket' = '1')");
        orders = (FileStoreTable) storage().getTable(Identifier.of("default", "orders"));
        TestData.commit(orders, row(1, "a", "1.50", "2024-01-01"), row(2, null, "2.00", "2024-01-01"),
                row(3, "c", "3.25", "2024-01-02"));
        TestData.commit(orders, row(1, "z", "9.99", "2024-01-01"));
    }

    private static GenericRow row(int id, String name, String amount, String dt) {
        return GenericRow.of(id, name == null ? null : BinaryString.fromString(name),
                Decimal.fromBigDecimal(new BigDecimal(amount), 10, 2), BinaryString.fromString(dt));
    }

    /** Rows as Flink {@link Row}s, for checking single fields. */
    private List<Row> flinkRows(String query) throws Exception {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private void assertRecentLocalTime(Object value) {
        assertThat((LocalDateTime) value).isBetween(before, LocalDateTime.now().plusSeconds(1));
    }

    @Test
    void snapshots() throws Exception {
        assertThat(rows("SELECT snapshot_id, schema_id, commit_identifier, commit_kind, changelog_manifest_list, "
                + "total_record_count, delta_record_count, changelog_record_count, `watermark` "
                + "FROM `orders$snapshots` ORDER BY snapshot_id")).containsExactly(
                "+I[1, 0, 9223372036854775807, APPEND, null, 3, 3, 0, null]",
                "+I[2, 0, 9223372036854775807, APPEND, null, 4, 1, 0, null]");
        for (Row r : flinkRows("SELECT * FROM `orders$snapshots`")) {
            Snapshot s = orders.snapshotManager().snapshot((Long) r.getField("snapshot_id"));
            assertThat(r.getField("commit_user")).isEqualTo(s.commitUser());
            assertThat(r.getField("base_manifest_list")).isEqualTo(s.baseManifestList());
            assertThat(r.getField("delta_manifest_list")).isEqualTo(s.deltaManifestList());
            assertThat(r.getField("commit_time")).isEqualTo(
                    LocalDateTime.ofInstant(Instant.ofEpochMilli(s.timeMillis()), ZoneId.systemDefault()));
            assertRecentLocalTime(r.getField("commit_time"));
        }
    }

    @Test
    void schemasAndOptions() throws Exception {
        assertThat(rows("SELECT schema_id, fields, partition_keys, primary_keys, options, `comment` FROM `orders$schemas`"))
                .containsExactly("+I[0, [{\"id\":0,\"name\":\"id\",\"type\":\"INT NOT NULL\"},"
                        + "{\"id\":1,\"name\":\"name\",\"type\":\"STRING\"},"
                        + "{\"id\":2,\"name\":\"amount\",\"type\":\"DECIMAL(10, 2)\"},"
                        + "{\"id\":3,\"name\":\"dt\",\"type\":\"STRING NOT NULL\"}], "
                        + "[\"dt\"], [\"id\",\"dt\"], {\"bucket\":\"1\"}, all orders]");
        assertRecentLocalTime(flinkRows("SELECT update_time FROM `orders$schemas`").get(0).getField(0));
        assertThat(rows("SELECT * FROM `orders$options`")).containsExactly("+I[bucket, 1]");
    }

    @Test
    void files() throws Exception {
        assertThat(rows("SELECT `partition`, bucket, file_format, schema_id, level, record_count, min_key, max_key, "
                + "null_value_counts, min_value_stats, max_value_stats, min_sequence_number, max_sequence_number, "
                + "deleteRowCount, file_source FROM `orders$files` ORDER BY `partition`, min_sequence_number"))
                .containsExactly(
                        "+I[{2024-01-01}, 0, parquet, 0, 0, 2, [1], [2], {amount=0, dt=0, id=0, name=1}, "
                                + "{amount=1.50, dt=2024-01-01, id=1, name=a}, {amount=2.00, dt=2024-01-01, id=2, name=a}, "
                                + "0, 1, 0, APPEND]",
                        "+I[{2024-01-01}, 0, parquet, 0, 0, 1, [1], [1], {amount=0, dt=0, id=0, name=0}, "
                                + "{amount=9.99, dt=2024-01-01, id=1, name=z}, {amount=9.99, dt=2024-01-01, id=1, name=z}, "
                                + "2, 2, 0, APPEND]",
                        "+I[{2024-01-02}, 0, parquet, 0, 0, 1, [3], [3], {amount=0, dt=0, id=0, name=0}, "
                                + "{amount=3.25, dt=2024-01-02, id=3, name=c}, {amount=3.25, dt=2024-01-02, id=3, name=c}, "
                                + "0, 0, 0, APPEND]");
        for (Row r : flinkRows("SELECT `partition`, file_path, file_size_in_bytes, creation_time FROM `orders$files`")) {
            String path = (String) r.getField("file_path");
            String dt = ((String) r.getField("partition")).replaceAll("[{}]", "");
            assertThat(path).as("Paimon prints local paths as file:/...").startsWith("file:/").doesNotStartWith("file://")
                    .contains("/default.db/orders/dt=" + dt + "/bucket-0/data-").endsWith(".parquet");
            assertThat(Files.size(Path.of(URI.create(path)))).isEqualTo(r.getField("file_size_in_bytes"));
            assertRecentLocalTime(r.getField("creation_time"));
        }
    }

    @Test
    void partitionsAndBucketsAgreeWithFilesInAJoin() {
        assertThat(rows("SELECT `partition`, record_count, file_count FROM `orders$partitions` ORDER BY `partition`"))
                .containsExactly("+I[{2024-01-01}, 3, 2]", "+I[{2024-01-02}, 1, 1]");
        assertThat(rows("SELECT `partition`, bucket, record_count, file_count FROM `orders$buckets` ORDER BY `partition`"))
                .containsExactly("+I[{2024-01-01}, 0, 3, 2]", "+I[{2024-01-02}, 0, 1, 1]");
        assertThat(sortedRows("SELECT p.`partition` FROM `orders$partitions` p JOIN ("
                + "  SELECT `partition`, SUM(file_size_in_bytes) AS total_bytes, MAX(creation_time) AS newest"
                + "  FROM `orders$files` GROUP BY `partition`) f ON p.`partition` = f.`partition`"
                + " JOIN `orders$buckets` b ON b.`partition` = p.`partition`"
                + " WHERE p.file_size_in_bytes = f.total_bytes AND p.last_update_time = f.newest"
                + " AND b.file_size_in_bytes = f.total_bytes AND b.last_update_time = f.newest"))
                .containsExactly("+I[{2024-01-01}]", "+I[{2024-01-02}]");
    }

    @Test
    void manifests() throws Exception {
        assertThat(rows("SELECT num_added_files, num_deleted_files, schema_id, min_partition_stats, max_partition_stats "
                + "FROM `orders$manifests` ORDER BY num_added_files DESC")).containsExactly(
                "+I[2, 0, 0, {2024-01-01}, {2024-01-02}]",
                "+I[1, 0, 0, {2024-01-01}, {2024-01-01}]");
        for (Row r : flinkRows("SELECT file_name, file_size FROM `orders$manifests`")) {
            Path manifest = warehouse.resolve("default.db/orders/manifest").resolve((String) r.getField(0));
            assertThat(Files.size(manifest)).isEqualTo(r.getField(1));
        }
    }

    @Test
    void tableIndexesListTheHashIndexesOfADynamicBucketTable() throws Exception {
        sql("CREATE TABLE dyn (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt) "
                + "WITH ('bucket' = '-1', 'dynamic-bucket.target-row-num' = '4')");
        sql("INSERT INTO dyn SELECT id, 'v', IF(id < 10, 'a', 'b') FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), "
                + "(8), (9), (10), (11)) AS t (id)");
        sql("INSERT INTO dyn VALUES (1, 'x', 'a'), (20, 'new', 'a'), (21, 'new', 'b')");

        assertThat(rows("SELECT DISTINCT index_type, dv_ranges FROM `dyn$table_indexes`"))
                .containsExactly("+I[HASH, null]");
        assertThat(sortedRows("SELECT `partition`, SUM(row_count), COUNT(*) > 1 FROM `dyn$table_indexes` "
                + "GROUP BY `partition`")).as("one hash per key, several buckets")
                .containsExactly("+I[{a}, 11, true]", "+I[{b}, 3, false]");
        assertThat(sortedRows("SELECT `partition`, SUM(row_count) FROM `dyn$table_indexes` "
                + "/*+ OPTIONS('scan.snapshot-id' = '1') */ GROUP BY `partition`"))
                .containsExactly("+I[{a}, 10]", "+I[{b}, 2]");
        List<Row> indexes = flinkRows("SELECT file_name, file_size, bucket FROM `dyn$table_indexes`");
        for (Row r : indexes) {
            Path file = warehouse.resolve("default.db/dyn/index").resolve((String) r.getField("file_name"));
            assertThat(Files.size(file)).isEqualTo(r.getField("file_size"));
        }
        assertThat(rows("SELECT COUNT(*) FROM `dyn$table_indexes` i JOIN (SELECT DISTINCT `partition`, bucket "
                + "FROM `dyn$files`) f ON i.`partition` = f.`partition` AND i.bucket = f.bucket"))
                .as("every index file covers a bucket with data files").containsExactly("+I[" + indexes.size() + "]");
        assertThat(rows("SELECT * FROM `orders$table_indexes`")).as("a fixed-bucket table has no index files")
                .isEmpty();
    }

    @Test
    void optionsHintSelectsASnapshot() {
        assertThat(rows("SELECT record_count, min_key FROM `orders$files` /*+ OPTIONS('scan.snapshot-id' = '1') */ "
                + "ORDER BY `partition`")).containsExactly("+I[2, [1]]", "+I[1, [3]]");
        assertThat(rows("SELECT num_added_files FROM `orders$manifests` /*+ OPTIONS('scan.snapshot-id' = '1') */"))
                .containsExactly("+I[2]");
        assertThat(rows("SELECT `partition`, record_count FROM `orders$partitions` "
                + "/*+ OPTIONS('scan.snapshot-id' = '1') */ ORDER BY `partition`"))
                .containsExactly("+I[{2024-01-01}, 2]", "+I[{2024-01-02}, 1]");
        assertThatThrownBy(() -> rows("SELECT * FROM `orders$files` /*+ OPTIONS('scan.snapshot-id' = '9') */"))
                .hasStackTraceContaining("Cannot read the metadata of table default.orders at snapshot 9 "
                        + "(option 'scan.snapshot-id'): no such snapshot; existing snapshots are [1, 2]");
        assertThatThrownBy(() -> rows("SELECT * FROM `orders$files` /*+ OPTIONS('scan.snapshot-id' = 'one') */"))
                .hasStackTraceContaining("Invalid value 'one' for option 'scan.snapshot-id'");
        // Any other option would be ignored by a system table, so it is refused.
        assertThatThrownBy(() -> rows("SELECT * FROM `orders$files` /*+ OPTIONS('scan.tag-name' = 't1') */"))
                .hasStackTraceContaining("with option 'scan.tag-name': system tables take only "
                        + "[scan.snapshot-id, scan.timestamp-millis]");
    }

    @Test
    void timeTravelSelectsTheSnapshotOfThatTime() throws Exception {
        long firstCommit = orders.snapshotManager().snapshot(1).timeMillis();
        String asOf = LocalDateTime.ofInstant(Instant.ofEpochMilli(firstCommit), ZoneId.systemDefault())
                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS"));
        long secondCommit = orders.snapshotManager().snapshot(2).timeMillis();
        long expectedFiles = secondCommit == firstCommit ? 3 : 2;
        assertThat(rows("SELECT COUNT(*) FROM `orders$files` FOR SYSTEM_TIME AS OF TIMESTAMP '" + asOf + "'"))
                .containsExactly("+I[" + expectedFiles + "]");
        assertThat(rows("SELECT COUNT(*) FROM `orders$files` FOR SYSTEM_TIME AS OF TIMESTAMP '2000-01-01 00:00:00'"))
                .containsExactly("+I[0]");
    }

    @Test
    void usableInFiltersAndJoins() {
        assertThat(rows("SELECT s.snapshot_id, s.total_record_count, c.primary_keys FROM `orders$snapshots` s "
                + "JOIN `orders$schemas` c ON s.schema_id = c.schema_id WHERE s.snapshot_id > 1"))
                .containsExactly("+I[2, 4, [\"id\",\"dt\"]]");
        assertThat(rows("SELECT `partition`, SUM(record_count) FROM `orders$files` WHERE level = 0 AND max_key <> '[2]' "
                + "GROUP BY `partition` ORDER BY `partition`"))
                .containsExactly("+I[{2024-01-01}, 1]", "+I[{2024-01-02}, 1]");
    }

    @Test
    void appendTablesHaveNoKeysAndAnUnpartitionedTableShowsEmptyBraces() throws Exception {
        sql("CREATE TABLE logs (msg STRING, level INT)");
        TestData.commit(storage().getTable(Identifier.of("default", "logs")),
                GenericRow.of(BinaryString.fromString("x"), 1), GenericRow.of(null, 3));
        assertThat(rows("SELECT `partition`, bucket, record_count, min_key, max_key, null_value_counts, "
                + "min_value_stats, max_value_stats FROM `logs$files`"))
                .containsExactly("+I[{}, 0, 2, null, null, {level=0, msg=1}, {level=1, msg=x}, {level=3, msg=x}]");
        assertThat(rows("SELECT `partition`, record_count, file_count FROM `logs$partitions`"))
                .containsExactly("+I[{}, 2, 1]");
        assertThat(rows("SELECT min_partition_stats, max_partition_stats FROM `logs$manifests`"))
                .containsExactly("+I[{}, {}]");
    }

    @Test
    void aTableWithoutSnapshotsHasEmptyMetadataTables() {
        sql("CREATE TABLE no_data (x INT)");
        assertThat(rows("SELECT * FROM `no_data$snapshots`")).isEmpty();
        assertThat(rows("SELECT * FROM `no_data$files`")).isEmpty();
        assertThat(rows("SELECT * FROM `no_data$partitions`")).isEmpty();
        assertThat(rows("SELECT * FROM `no_data$buckets`")).isEmpty();
        assertThat(rows("SELECT * FROM `no_data$manifests`")).isEmpty();
        assertThat(rows("SELECT * FROM `no_data$table_indexes`")).isEmpty();
        assertThat(rows("SELECT * FROM `no_data$options`")).isEmpty();
        assertThat(rows("SELECT schema_id FROM `no_data$schemas`")).containsExactly("+I[0]");
    }

    @Test
    void unknownSystemTablesAndWritesAreRefused() {
        assertThatThrownBy(() -> rows("SELECT * FROM `orders$nope`"))
                .hasStackTraceContaining("Unknown system table 'orders$nope'; system tables are <table>$snapshots");
        assertThatThrownBy(() -> rows("SELECT * FROM `nope$files`")).hasStackTraceContaining("nope$files");
        assertThatThrownBy(() -> sql("INSERT INTO `orders$options` VALUES ('a', 'b')"))
                .hasStackTraceContaining("system tables are read-only");
    }

    @Test
    void columnNamesAndTypesAreThoseOfPaimon() {
        assertThat(rows("DESCRIBE `orders$files`")).extracting(s -> s.substring(3, s.indexOf(',', s.indexOf(',') + 1)))
                .containsExactly("partition, STRING", "bucket, INT", "file_path, STRING", "file_format, STRING",
                        "schema_id, BIGINT", "level, INT", "record_count, BIGINT", "file_size_in_bytes, BIGINT",
                        "min_key, STRING", "max_key, STRING", "null_value_counts, STRING", "min_value_stats, STRING",
                        "max_value_stats, STRING", "min_sequence_number, BIGINT", "max_sequence_number, BIGINT",
                        "creation_time, TIMESTAMP(3)", "deleteRowCount, BIGINT", "file_source, STRING");
        // name, type, nullable (no key, computed column or watermark)
        assertThat(rows("DESCRIBE `orders$table_indexes`")).extracting(s -> s.replace(", null, null, null]", ""))
                .containsExactly("+I[partition, STRING, true", "+I[bucket, INT, false", "+I[index_type, STRING, false",
                        "+I[file_name, STRING, false", "+I[file_size, BIGINT, false", "+I[row_count, BIGINT, false",
                        "+I[dv_ranges, ARRAY<ROW<`f0` STRING NOT NULL, `f1` INT NOT NULL, `f2` INT NOT NULL, "
                                + "`_CARDINALITY` BIGINT>>, true");
        assertThat(rows("DESCRIBE `orders$snapshots`")).extracting(s -> s.substring(3, s.indexOf(',')))
                .containsExactly("snapshot_id", "schema_id", "commit_user", "commit_identifier", "commit_kind",
                        "commit_time", "base_manifest_list", "delta_manifest_list", "changelog_manifest_list",
                        "total_record_count", "delta_record_count", "changelog_record_count", "watermark");
    }
}
