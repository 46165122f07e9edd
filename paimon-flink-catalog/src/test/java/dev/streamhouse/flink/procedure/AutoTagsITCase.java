package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Automatic tags through Flink: {@code CALL sys.trigger_tag_automatic_creation}, a streaming job with
 * process-time tags, and a streaming job whose committer records the watermark that watermark tags
 * follow. No timing is asserted: expected tag names come from the snapshots' own time fields.
 */
class AutoTagsITCase extends CatalogITCaseBase {

    private FileStoreTable table(String name) {
        return (FileStoreTable) storage().getTable(Identifier.of("default", name));
    }

    /** The daily tag the first snapshot creates: the day before its commit day, in the JVM's zone. */
    private String dayBefore(Snapshot s) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(s.timeMillis()), ZoneId.systemDefault()).toLocalDate()
                .minusDays(1).toString();
    }

    private TableEnvironment streaming() {
        TableEnvironment sEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sEnv.getConfig().set("parallelism.default", "1");
        sEnv.getConfig().set("execution.checkpointing.interval", "200 ms");
        sEnv.getConfig().set("pipeline.auto-watermark-interval", "50 ms");
        sEnv.executeSql("CREATE CATALOG " + CATALOG + " WITH ('type' = 'paimon', 'warehouse' = '" + warehouseUri()
                + "')");
        sEnv.useCatalog(CATALOG);
        return sEnv;
    }

    private static void runToEnd(TableEnvironment env, String statement) throws Exception {
        TableResult result = env.executeSql(statement);
        result.await(120, TimeUnit.SECONDS);
    }

    @Test
    void triggerRecreatesTheAutomaticTagOfTheFirstSnapshot() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', "
                + "'tag.automatic-creation' = 'process-time')");
        sql("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
        String tag = dayBefore(table("t").snapshotManager().snapshot(1));
        assertThat(rows("SELECT tag_name, snapshot_id FROM `t$tags`")).containsExactly("+I[" + tag + ", 1]");
        rows("CALL sys.delete_tag('default.t', '" + tag + "')");
        assertThat(rows("SELECT * FROM `t$tags`")).isEmpty();
        assertThat(rows("CALL sys.trigger_tag_automatic_creation(`table` => 'default.t')"))
                .containsExactly("+I[Success]");
        assertThat(rows("SELECT tag_name, snapshot_id FROM `t$tags`")).containsExactly("+I[" + tag + ", 1]");
        assertThat(sortedRows("SELECT * FROM t /*+ OPTIONS('scan.tag-name' = '" + tag + "') */"))
                .containsExactly("+I[1, a]", "+I[2, b]");
        assertThat(rows("CALL sys.trigger_tag_automatic_creation('default.t')")).containsExactly("+I[Success]");
        assertThat(rows("SELECT tag_name FROM `t$tags`")).containsExactly("+I[" + tag + "]");
    }

    @Test
    void aStreamingJobCreatesProcessTimeTags() throws Exception {
        sql("CREATE TABLE s (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2', "
                + "'tag.automatic-creation' = 'process-time', 'tag.creation-period' = 'daily')");
        TableEnvironment sEnv = streaming();
        sEnv.executeSql("CREATE TEMPORARY TABLE gen (id INT, v STRING) WITH ('connector' = 'datagen', "
                + "'rows-per-second' = '500', 'number-of-rows' = '1000', 'fields.id.min' = '1', "
                + "'fields.id.max' = '40', 'fields.v.length' = '4')");
        runToEnd(sEnv, "INSERT INTO s SELECT * FROM gen");
        FileStoreTable s = table("s");
        List<TableTags.TagInfo> tags = TableTags.of(s).list();
        assertThat(tags).isNotEmpty();
        Snapshot first = s.snapshotManager().snapshot(1);
        assertThat(tags.get(0).name()).isEqualTo(dayBefore(first));
        assertThat(tags.get(0).snapshot().id()).isEqualTo(1);
        // Any later tag (a job crossing midnight) names a day that ended before its snapshot.
        for (TableTags.TagInfo t : tags) {
            LocalDateTime end = java.time.LocalDate.parse(t.name()).plusDays(1).atStartOfDay();
            assertThat(LocalDateTime.ofInstant(Instant.ofEpochMilli(t.snapshot().timeMillis()), ZoneId.systemDefault()))
                    .isAfterOrEqualTo(end);
        }
    }

    @Test
    void aStreamingJobRecordsWatermarksThatWatermarkTagsFollow() throws Exception {
        sql("CREATE TABLE w (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', "
                + "'tag.automatic-creation' = 'watermark', 'tag.creation-period' = 'hourly', "
                + "'sink.watermark-time-zone' = 'UTC')");
        TableEnvironment sEnv = streaming();
        // Event time: one minute per row from 2024-05-02 00:00 UTC.
        sEnv.executeSql("CREATE TEMPORARY TABLE gen (id INT, v STRING, ts AS TO_TIMESTAMP_LTZ(1714608000000 + "
                + "CAST(id AS BIGINT) * 60000, 3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', "
                + "'rows-per-second' = '400', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '1200', 'fields.v.length' = '4')");
        runToEnd(sEnv, "INSERT INTO w SELECT id, v FROM gen");
        FileStoreTable w = table("w");
        long latest = w.snapshotManager().latestSnapshotId();
        long withWatermark = 0;
        for (long id = 1; id <= latest; id++) {
            Long wm = w.snapshotManager().snapshot(id).watermark();
            if (wm != null) {
                withWatermark++;
                assertThat(wm).as("the end-of-input watermark is not recorded").isLessThan(Long.MAX_VALUE);
            }
        }
        assertThat(withWatermark).as("snapshots recording the committer's watermark").isGreaterThan(0);
        List<TableTags.TagInfo> tags = TableTags.of(w).list();
        assertThat(tags).isNotEmpty();
        DateTimeFormatter hour = DateTimeFormatter.ofPattern("yyyy-MM-dd HH");
        for (TableTags.TagInfo t : tags) {
            LocalDateTime start = LocalDateTime.parse(t.name() + ":00", DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
            LocalDateTime watermark = LocalDateTime.ofInstant(Instant.ofEpochMilli(t.snapshot().watermark()),
                    ZoneOffset.UTC);
            assertThat(watermark).as("tag %s", t.name()).isAfterOrEqualTo(start.plusHours(1));
            assertThat(t.name()).isEqualTo(start.format(hour));
        }
    }

    /**
     * A streaming job that writes nothing still commits a snapshot when its process-time tags need one
     * (here: the table has no automatic tag yet), so the tag of the period before is created.
     */
    @Test
    void aStreamingJobWithoutDataCommitsAnEmptySnapshotForItsProcessTimeTags() throws Exception {
        sql("CREATE TABLE e (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', "
                + "'tag.automatic-creation' = 'process-time', 'tag.creation-period' = 'daily')");
        TableEnvironment sEnv = streaming();
        sEnv.executeSql("CREATE TEMPORARY TABLE gen (id INT, v STRING) WITH ('connector' = 'datagen', "
                + "'rows-per-second' = '10', 'fields.id.min' = '1', 'fields.id.max' = '40')");
        TableResult job = sEnv.executeSql("INSERT INTO e SELECT * FROM gen WHERE id < 0");
        try {
            FileStoreTable e = table("e");
            waitUntil(() -> !TableTags.of(e).list().isEmpty());
            Snapshot first = e.snapshotManager().snapshot(1);
            assertThat(first.totalRecordCount()).isEqualTo(0);
            assertThat(TableTags.of(e).list().get(0).name()).isEqualTo(dayBefore(first));
            assertThat(rows("SELECT * FROM e")).isEmpty();
        } finally {
            job.getJobClient().orElseThrow().cancel().get(60, TimeUnit.SECONDS);
        }
    }

    /**
     * With {@code snapshot.watermark-idle-timeout}, checkpoints without data still commit snapshots that
     * record the advancing watermark, so hourly watermark tags keep coming after the only row written.
     */
    @Test
    void watermarkTagsKeepComingWithoutDataOnceTheSnapshotWatermarkIsIdle() throws Exception {
        sql("CREATE TABLE i (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', "
                + "'tag.automatic-creation' = 'watermark', 'tag.creation-period' = 'hourly', "
                + "'sink.watermark-time-zone' = 'UTC', 'snapshot.watermark-idle-timeout' = '1 s')");
        TableEnvironment sEnv = streaming();
        // Event time: one minute per row from 2024-05-02 00:00 UTC; only the first row is written.
        sEnv.executeSql("CREATE TEMPORARY TABLE gen (id INT, v STRING, ts AS TO_TIMESTAMP_LTZ(1714608000000 + "
                + "CAST(id AS BIGINT) * 60000, 3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', "
                + "'rows-per-second' = '100', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '1000000', 'fields.v.length' = '4')");
        TableResult job = sEnv.executeSql("INSERT INTO i SELECT id, v FROM gen WHERE id = 1");
        try {
            FileStoreTable i = table("i");
            waitUntil(() -> TableTags.of(i).list().size() >= 3);
            List<TableTags.TagInfo> tags = TableTags.of(i).list();
            for (TableTags.TagInfo t : tags.subList(1, tags.size())) {
                assertThat(t.snapshot().deltaRecordCount()).as("tag %s is on an empty snapshot", t.name())
                        .isEqualTo(0);
                assertThat(t.snapshot().watermark()).isLessThan(Long.MAX_VALUE);
            }
            assertThat(rows("SELECT id FROM i")).containsExactly("+I[1]");
        } finally {
            job.getJobClient().orElseThrow().cancel().get(60, TimeUnit.SECONDS);
        }
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    /** Waits until {@code check} holds (a hang guard of two minutes fails the test instead of hanging it). */
    private static void waitUntil(Check check) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMinutes(2))
                .pollInterval(java.time.Duration.ofMillis(100)).until(check::holds);
    }
}
