package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotSerializer;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Automatic tags on real tables. Process time is driven by the snapshots' commit times, which the
 * tests set in the snapshot files; watermark and batch tags come from real commits.
 */
class AutoTagCreationTest {
    @TempDir
    java.nio.file.Path dir;

    private FileStoreTable table;

    private FileStoreTable create(String... options) throws Exception {
        table = TestTables.create(LocalFileIO.INSTANCE, new Path(dir + "/db.db/t"), TestTables.simpleSchema(options));
        return table;
    }

    private static long utc(String localDateTime) {
        return LocalDateTime.parse(localDateTime).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /** Commits one snapshot per time and sets its commit time (UTC) in the snapshot file. */
    private void snapshotsAt(String... times) throws Exception {
        for (String t : times) {
            TestTables.write(table, TestTables.rows(1, 1, 1));
            Snapshot s = table.snapshotManager().latestSnapshot().orElseThrow();
            Snapshot timed = new Snapshot(s.version(), s.id(), s.schemaId(), s.baseManifestList(),
                    s.baseManifestListSize(), s.deltaManifestList(), s.deltaManifestListSize(),
                    s.changelogManifestList(), s.changelogManifestListSize(), s.indexManifest(), s.commitUser(),
                    s.commitIdentifier(), s.commitKind(), utc(t), s.logOffsets(), s.totalRecordCount(),
                    s.deltaRecordCount(), s.changelogRecordCount(), s.watermark(), s.statistics(), s.properties(),
                    s.nextRowId());
            Files.writeString(java.nio.file.Path.of(table.snapshotManager().snapshotPath(s.id()).toString()),
                    SnapshotSerializer.toJson(timed), StandardCharsets.UTF_8);
        }
    }

    private static AutoTagConfig config(String... options) {
        List<String> kv = new ArrayList<>(List.of("tag.automatic-creation", "process-time",
                "sink.process-time-zone", "UTC"));
        kv.addAll(List.of(options));
        return AutoTagConfig.from(Options.of(kv.toArray(new String[0])));
    }

    private List<String> tags() throws Exception {
        List<String> out = new ArrayList<>();
        for (TagManager.NamedTag t : table.tagManager().tags()) {
            out.add(t.name() + "@" + t.tag().snapshot().id());
        }
        return out;
    }

    private void run(AutoTagConfig config) throws Exception {
        AutoTagCreation.open(table.snapshotManager(), table.tagManager(), config, null).run();
    }

    @Test
    void processTimeDailyTagsAtPeriodBoundaries() throws Exception {
        create();
        snapshotsAt("2024-05-02T10:00", "2024-05-02T23:59:59", "2024-05-03T00:00", "2024-05-03T05:00",
                "2024-05-05T01:00");
        run(config());
        // The first snapshot tags the day before its own; later ones once their day ended.
        assertThat(tags()).containsExactly("2024-05-01@1", "2024-05-02@3", "2024-05-04@5");
        // Running again (a restart: state rebuilt from the newest automatic tag) creates nothing new.
        run(config());
        assertThat(tags()).containsExactly("2024-05-01@1", "2024-05-02@3", "2024-05-04@5");
        snapshotsAt("2024-05-05T23:00", "2024-05-06T00:30");
        run(config());
        assertThat(tags()).containsExactly("2024-05-01@1", "2024-05-02@3", "2024-05-04@5", "2024-05-05@7");
    }

    @Test
    void automaticCompletionFillsMissedPeriodsOnePerSnapshot() throws Exception {
        create();
        snapshotsAt("2024-05-02T10:00", "2024-05-05T01:00", "2024-05-05T02:00", "2024-05-05T03:00");
        run(config("tag.automatic-completion", "true"));
        assertThat(tags()).containsExactly("2024-05-01@1", "2024-05-02@2", "2024-05-03@3", "2024-05-04@4");
    }

    @Test
    void theDelayHoldsATagBackUntilPeriodEndPlusDelay() throws Exception {
        create();
        snapshotsAt("2024-05-02T10:05", "2024-05-02T11:05", "2024-05-02T11:10", "2024-05-02T12:09");
        run(config("tag.creation-period", "hourly", "tag.creation-delay", "10 min"));
        assertThat(tags()).containsExactly("2024-05-02 09@1", "2024-05-02 10@3");
    }

    @Test
    void numRetainedMaxDeletesTheOldestAutomaticTagsOnly() throws Exception {
        create();
        snapshotsAt("2024-05-02T10:00");
        table.tagManager().create("manual", table.snapshotManager().snapshot(1), null);
        snapshotsAt("2024-05-03T10:00", "2024-05-04T10:00", "2024-05-05T10:00");
        run(config("tag.num-retained-max", "2"));
        assertThat(tags()).containsExactly("manual@1", "2024-05-03@3", "2024-05-04@4");
    }

    @Test
    void newTagsKeepTheDefaultRetentionAndWriteSuccessFiles() throws Exception {
        create();
        snapshotsAt("2024-05-02T10:00", "2024-05-03T10:00");
        AutoTagConfig config = config("tag.default-time-retained", "1 d", "tag.num-retained-max", "1",
                "tag.create-success-file", "true");
        TagSuccessFiles files = new TagSuccessFiles(LocalFileIO.INSTANCE, table.location());
        AutoTagCreation.open(table.snapshotManager(), table.tagManager(), config, files).run();
        assertThat(tags()).containsExactly("2024-05-02@2");
        assertThat(table.tagManager().tagOrThrow("2024-05-02").timeRetained()).isEqualTo(Duration.ofDays(1));
        assertThat(Files.exists(java.nio.file.Path.of(files.path("2024-05-02").toString()))).isTrue();
        // The tag deleted by tag.num-retained-max took its success file along.
        assertThat(Files.exists(java.nio.file.Path.of(files.path("2024-05-01").toString()))).isFalse();
        assertThat(Files.readString(java.nio.file.Path.of(files.path("2024-05-02").toString())))
                .contains("\"creationTime\"").contains("\"modificationTime\"");
    }

    @Test
    void watermarkTagsAreCreatedAfterCommitsFromTheSnapshotWatermark() throws Exception {
        create("tag.automatic-creation", "watermark", "tag.creation-period", "hourly",
                "sink.watermark-time-zone", "UTC");
        try (TableCommit commit = table.newStreamCommit("job")) {
            long id = 1;
            for (Long watermark : new Long[] {null, utc("2024-05-02T10:30"), utc("2024-05-02T10:59"),
                    utc("2024-05-02T11:00"), utc("2024-05-02T13:20")}) {
                try (TableWrite w = table.newWrite()) {
                    w.write(TestTables.row((int) id, "n", "d0"));
                    commit.commit(id++, watermark, Map.of(), w.prepareCommit());
                }
            }
        }
        assertThat(table.snapshotManager().snapshot(2).watermark()).isEqualTo(utc("2024-05-02T10:30"));
        // Snapshot 1 has no watermark and is skipped; snapshot 2 tags hour 09.
        assertThat(tags()).containsExactly("2024-05-02 09@2", "2024-05-02 10@4", "2024-05-02 12@5");
    }

    @Test
    void batchModeTagsTheLatestSnapshotOfEachBatchCommit() throws Exception {
        create("tag.automatic-creation", "batch", "sink.process-time-zone", "UTC", "tag.num-retained-max", "2");
        TestTables.write(table, TestTables.rows(1, 2, 1));
        Snapshot first = table.snapshotManager().latestSnapshot().orElseThrow();
        String day = LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(first.timeMillis()), ZoneOffset.UTC)
                .toLocalDate().toString();
        assertThat(tags()).containsExactly("batch-write-" + day + "@1");
        // Another batch job on the same day replaces the tag.
        TestTables.write(table, TestTables.rows(3, 2, 1));
        assertThat(table.tagManager().tagOrThrow("batch-write-" + day).snapshot().id()).isEqualTo(2);
        // A streaming commit creates no batch tag.
        try (TableCommit commit = table.newStreamCommit("job"); TableWrite w = table.newWrite()) {
            w.write(TestTables.row(9, "n", "d0"));
            commit.commit(1, w.prepareCommit());
        }
        assertThat(tags()).containsExactly("batch-write-" + day + "@2");
        // With a customized name; all tags count for tag.num-retained-max in batch mode.
        table.tagManager().create("manual", table.snapshotManager().snapshot(1), null);
        FileStoreTable named = table.copy(Map.of("tag.batch.customized-name", "nightly"));
        TestTables.write(named, TestTables.rows(20, 1, 1));
        assertThat(tags()).containsExactly("batch-write-" + day + "@2", "nightly@4");
    }

    @Test
    void tagsWhoseRetentionPassedAreDeletedAfterACommit() throws Exception {
        create();
        TestTables.write(table, TestTables.rows(1, 1, 1));
        Snapshot s = table.snapshotManager().snapshot(1);
        table.tagManager().write("old", new Tag(s, LocalDateTime.now().minusDays(2), Duration.ofDays(1)));
        table.tagManager().write("young", new Tag(s, LocalDateTime.now().minusDays(2), Duration.ofDays(30)));
        table.tagManager().create("forever", s, null);
        TestTables.write(table, TestTables.rows(2, 1, 1));
        assertThat(tags()).containsExactly("forever@1", "young@1");
    }

    @Test
    void writeOnlyTablesCreateNoTags() throws Exception {
        create("tag.automatic-creation", "batch", "write-only", "true");
        TestTables.write(table, TestTables.rows(1, 1, 1));
        assertThat(tags()).isEmpty();
    }

    @Test
    void processTimeTagsForceASnapshotBeforeTheFirstTagAndAtEachPeriodEndPlusDelay() throws Exception {
        create();
        AutoTagConfig hourly = config("tag.creation-period", "hourly", "tag.creation-delay", "10 min");
        AutoTagCreation creation = AutoTagCreation.open(table.snapshotManager(), table.tagManager(), hourly, null);
        // No automatic tag yet: a snapshot is due now, whatever the time.
        assertThat(creation.forceCreatingSnapshot(instant("2024-05-02T10:05"))).isTrue();

        snapshotsAt("2024-05-02T10:05");
        creation.run();
        assertThat(tags()).containsExactly("2024-05-02 09@1");
        // The next tag (hour 10) is due once hour 10 ended plus the delay.
        assertThat(creation.forceCreatingSnapshot(instant("2024-05-02T10:59"))).isFalse();
        assertThat(creation.forceCreatingSnapshot(instant("2024-05-02T11:09:59"))).isFalse();
        assertThat(creation.forceCreatingSnapshot(instant("2024-05-02T11:10"))).isTrue();

        // An empty snapshot committed then creates that tag, and the next one is an hour later.
        try (TableCommit commit = table.newStreamCommit("job")) {
            commit.commitEmpty(7, null);
        }
        Snapshot empty = table.snapshotManager().latestSnapshot().orElseThrow();
        assertThat(empty.id()).isEqualTo(2);
        assertThat(empty.commitKind()).isEqualTo(dev.streamhouse.storage.snapshot.CommitKind.APPEND);
        assertThat(empty.commitIdentifier()).isEqualTo(7);
        assertThat(empty.deltaRecordCount()).isEqualTo(0);
        snapshotsAtExisting(2, "2024-05-02T11:10");
        creation.run();
        assertThat(tags()).containsExactly("2024-05-02 09@1", "2024-05-02 10@2");
        assertThat(creation.forceCreatingSnapshot(instant("2024-05-02T11:30"))).isFalse();
        assertThat(creation.forceCreatingSnapshot(instant("2024-05-02T12:10"))).isTrue();
        // The table reads the same rows through the empty snapshot.
        assertThat(TestTables.readAll(table)).hasSize(1);
    }

    @Test
    void watermarkTagsForceASnapshotOnlyWhenTheSnapshotWatermarkIsOlderThanTheIdleTimeout() throws Exception {
        create("tag.automatic-creation", "watermark", "tag.creation-period", "hourly",
                "sink.watermark-time-zone", "UTC");
        AutoTagConfig idle = config("tag.automatic-creation", "watermark", "tag.creation-period", "hourly",
                "snapshot.watermark-idle-timeout", "1 min");
        AutoTagCreation withTimeout = AutoTagCreation.open(table.snapshotManager(), table.tagManager(), idle, null);
        // Without a snapshot (or a watermark) nothing is forced.
        assertThat(withTimeout.forceCreatingSnapshot(instant("2024-05-02T12:00"))).isFalse();
        try (TableCommit commit = table.newStreamCommit("job"); TableWrite w = table.newWrite()) {
            w.write(TestTables.row(1, "n", "d0"));
            commit.commit(1, utc("2024-05-02T10:30"), Map.of(), w.prepareCommit());
        }
        assertThat(withTimeout.forceCreatingSnapshot(instant("2024-05-02T10:30:59"))).isFalse();
        assertThat(withTimeout.forceCreatingSnapshot(instant("2024-05-02T10:31"))).isTrue();

        AutoTagCreation withoutTimeout = AutoTagCreation.open(table.snapshotManager(), table.tagManager(),
                config("tag.automatic-creation", "watermark", "tag.creation-period", "hourly"), null);
        assertThat(withoutTimeout.forceCreatingSnapshot(instant("2024-05-03T00:00"))).isFalse();

        // A forced snapshot records the newer watermark, which creates the tag a data commit would have.
        try (TableCommit commit = table.newStreamCommit("job")) {
            commit.commitEmpty(2, utc("2024-05-02T11:05"));
        }
        assertThat(table.snapshotManager().snapshot(2).watermark()).isEqualTo(utc("2024-05-02T11:05"));
        assertThat(tags()).containsExactly("2024-05-02 09@1", "2024-05-02 10@2");
    }

    @Test
    void tablesWithoutPeriodicTagsNeverForceASnapshot() throws Exception {
        create();
        try (TableCommit commit = table.newStreamCommit("job")) {
            assertThat(commit.forceCreatingSnapshot()).isFalse();
        }
        try (TableCommit commit = table.copy(Map.of("tag.automatic-creation", "process-time"))
                .newStreamCommit("job")) {
            // No automatic tag yet: due.
            assertThat(commit.forceCreatingSnapshot()).isTrue();
        }
    }

    private static java.time.Instant instant(String utcLocalDateTime) {
        return java.time.Instant.ofEpochMilli(utc(utcLocalDateTime));
    }

    /** Sets the commit time (UTC) of existing snapshot {@code id}. */
    private void snapshotsAtExisting(long id, String time) throws Exception {
        Snapshot s = table.snapshotManager().snapshot(id);
        Snapshot timed = new Snapshot(s.version(), s.id(), s.schemaId(), s.baseManifestList(),
                s.baseManifestListSize(), s.deltaManifestList(), s.deltaManifestListSize(),
                s.changelogManifestList(), s.changelogManifestListSize(), s.indexManifest(), s.commitUser(),
                s.commitIdentifier(), s.commitKind(), utc(time), s.logOffsets(), s.totalRecordCount(),
                s.deltaRecordCount(), s.changelogRecordCount(), s.watermark(), s.statistics(), s.properties(),
                s.nextRowId());
        Files.writeString(java.nio.file.Path.of(table.snapshotManager().snapshotPath(s.id()).toString()),
                SnapshotSerializer.toJson(timed), StandardCharsets.UTF_8);
    }
}
