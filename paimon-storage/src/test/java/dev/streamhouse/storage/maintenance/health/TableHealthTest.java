package dev.streamhouse.storage.maintenance.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

/**
 * Health checks in storage alone: thresholds follow the table's options, the layout counts files per
 * level, and a finding carries its bucket and an exact statement.
 */
class TableHealthTest {
    @TempDir
    java.nio.file.Path dir;

    private FileStoreTable appendTable(String... options) throws Exception {
        return TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/t"),
                TestTables.simpleSchema(options));
    }

    @Test
    void aTableWithoutSnapshotsIsHealthy() throws Exception {
        FileStoreTable table = appendTable();
        assertThat(TableHealth.of(table).check()).isEmpty();
        assertThat(TableHealth.of(table).layout().buckets()).isEmpty();
    }

    @Test
    void thresholdsComeFromTheTablesOptions() throws Exception {
        FileStoreTable table = appendTable("write-only", "true", "target-file-size", "10 mb",
                "compaction.min.file-num", "3", "snapshot.num-retained.max", "20");
        HealthThresholds limits = TableHealth.of(table).thresholds();
        assertThat(limits.primaryKey()).isFalse();
        assertThat(limits.targetFileBytes()).isEqualTo(10L << 20);
        assertThat(limits.smallFileBytes()).isEqualTo((10L << 20) / 10 * 7);
        assertThat(limits.smallFilesPerBucket()).isEqualTo(3);
        assertThat(limits.snapshotsMax()).isEqualTo(20);
        assertThat(limits.changelogsMax()).as("defaults to snapshot.num-retained.max").isEqualTo(20);
        assertThat(limits.stopTrigger()).as("compaction trigger 5 + 3").isEqualTo(8);
    }

    @Test
    void smallFilesAreJudgedByTheTablesOwnMinimumFileNumber() throws Exception {
        FileStoreTable table = appendTable("write-only", "true");
        for (int i = 0; i < 3; i++) {
            TestTables.write(table, TestTables.rows(i, 1, 1));
        }
        assertThat(TableHealth.of(table).check()).isEmpty();
        TableLayout.BucketStats bucket = TableHealth.of(table).layout().buckets().get(0);
        assertThat(bucket.partitionText()).isEqualTo("dt=d0");
        assertThat(bucket.levels()).singleElement().satisfies(l -> {
            assertThat(l.level()).isZero();
            assertThat(l.fileCount()).isEqualTo(3);
            assertThat(l.rowCount()).isEqualTo(3);
            assertThat(l.minFileBytes()).isLessThanOrEqualTo(l.avgFileBytes()).isPositive();
            assertThat(l.maxFileBytes()).isGreaterThanOrEqualTo(l.avgFileBytes());
        });

        FileStoreTable stricter = table.copy(Map.of("compaction.min.file-num", "3"));
        List<HealthFinding> findings = TableHealth.of(stricter).check();
        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.MEDIUM);
            assertThat(f.check()).isEqualTo("small_files");
            assertThat(f.scope()).isEqualTo("partition=dt=d0, bucket=0");
            assertThat(f.measured()).isEqualTo("3");
            assertThat(f.threshold()).isEqualTo("3");
            assertThat(f.recommendation()).isEqualTo("CALL sys.compact(`table` => 'default.test', partitions => 'dt=d0')");
            assertThat(f.bucket().bucket()).isZero();
            assertThat(f.isFixedByCompaction()).isTrue();
        });
    }

    @Test
    void snapshotsBeyondTheMaximumAreATableFinding() throws Exception {
        FileStoreTable table = appendTable("write-only", "true", "snapshot.num-retained.min", "1",
                "snapshot.num-retained.max", "2");
        for (int i = 0; i < 3; i++) {
            TestTables.write(table, TestTables.rows(i, 1, 3));
        }
        assertThat(TableHealth.of(table).check()).singleElement().satisfies(f -> {
            assertThat(f.check()).isEqualTo("snapshots_retained");
            assertThat(f.scope()).isEqualTo("table");
            assertThat(f.bucket()).isNull();
            assertThat(f.recommendation()).isEqualTo("CALL sys.expire_snapshots(`table` => 'default.test')");
        });
    }

    @Test
    void statementsQuoteLiteralsAndIdentifiers() {
        Statements sql = new Statements("my db.it's");
        assertThat(sql.alter("k", "v'1")).isEqualTo("ALTER TABLE `my db`.`it's` SET ('k' = 'v''1')");
        assertThat(sql.compact(Map.of("dt", "a"))).isEqualTo("CALL sys.compact(`table` => 'my db.it''s', partitions => 'dt=a')");
        assertThat(LifecycleChecks.duration(86_400_000L)).isEqualTo("1 d");
        assertThat(LifecycleChecks.duration(250)).isEqualTo("250 ms");
        assertThat(LifecycleChecks.duration(5_400_000L)).isEqualTo("90 min");
    }
}
