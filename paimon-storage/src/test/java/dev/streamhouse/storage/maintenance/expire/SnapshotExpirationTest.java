package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotSerializer;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Snapshot expiration on real files: retention by count, time and limit; tags and consumers protect. */
class SnapshotExpirationTest {
    @TempDir
    java.nio.file.Path tmp;

    private static final ExpireConfig KEEP_TWO = new ExpireConfig(2, Integer.MAX_VALUE, Duration.ZERO, 100, false, null);

    /** A table whose commits do not expire anything themselves ('write-only'). */
    private ExpirationFixture manualTable() throws Exception {
        return new ExpirationFixture(TestTables.create(LocalFileIO.INSTANCE, ExpirationFixture.root(tmp),
                TestTables.simpleSchema("write-only", "true")));
    }

    /** Appends and overwrites, so that later snapshots delete files of earlier ones. */
    private static void sixSnapshots(ExpirationFixture f) throws Exception {
        f.append(4);
        f.append(4);
        f.overwriteD0(2);
        f.append(4);
        f.overwriteD0(3);
        f.append(2);
    }

    @Test
    void eachCommitExpiresBeyondTheMaximumAndEveryRetainedSnapshotStillReadsItsRows() throws Exception {
        ExpirationFixture f = new ExpirationFixture(TestTables.create(LocalFileIO.INSTANCE,
                ExpirationFixture.root(tmp), TestTables.simpleSchema("snapshot.num-retained.min", "2",
                        "snapshot.num-retained.max", "3")));
        sixSnapshots(f);

        assertThat(f.snapshotIds()).containsExactly(4L, 5L, 6L);
        assertThat(f.table.fileIO().readUtf8(f.table.snapshotManager().earliestHintPath())).isEqualTo("4");
        f.assertRetainedSnapshotsRead(4);
        f.assertFilesOnDiskAreExactlyReferenced(List.of());
    }

    @Test
    void aStoredMaximumBelowTheDefaultMinimumKeepsThatMany() {
        // CREATE refuses it, but a table another writer stored may have it: expiration keeps 2, not fails.
        ExpireConfig config = ExpireConfig.from(dev.streamhouse.storage.options.Options.of(
                "snapshot.num-retained.max", "2"));
        assertThat(config.retainMin()).isEqualTo(2);
        assertThat(config.retainMax()).isEqualTo(2);
        assertThatThrownBy(() -> ExpireConfig.from(dev.streamhouse.storage.options.Options.of(
                "snapshot.num-retained.max", "2", "snapshot.num-retained.min", "3")))
                .hasMessageContaining("smaller than the fewest (3");
    }

    @Test
    void theDefaultsKeepYoungSnapshots() throws Exception {
        ExpirationFixture f = new ExpirationFixture(TestTables.create(LocalFileIO.INSTANCE,
                ExpirationFixture.root(tmp), TestTables.simpleSchema()));
        for (int i = 0; i < 12; i++) {
            f.append(1);
        }
        // More than 'snapshot.num-retained.min' (10), but all younger than 'snapshot.time-retained' (1 h).
        assertThat(f.snapshotIds()).hasSize(12);
        assertThat(f.table.newSnapshotExpiration().expire(ExpireConfig.from(f.table.schema().tableOptions())))
                .isZero();
    }

    @Test
    void writeOnlyTablesDoNotExpireOnCommit() throws Exception {
        ExpirationFixture f = new ExpirationFixture(TestTables.create(LocalFileIO.INSTANCE,
                ExpirationFixture.root(tmp), TestTables.simpleSchema("write-only", "true",
                        "snapshot.num-retained.min", "1", "snapshot.num-retained.max", "1")));
        sixSnapshots(f);
        assertThat(f.snapshotIds()).hasSize(6);
    }

    @Test
    void retentionByTimeStopsAtTheFirstYoungSnapshotAndKeepsTheMinimum() throws Exception {
        ExpirationFixture f = manualTable();
        for (int i = 0; i < 6; i++) {
            f.append(2);
            Thread.sleep(3); // distinct commit times
        }
        long t4 = f.table.snapshotManager().snapshot(4).timeMillis();
        Duration hour = Duration.ofHours(1);
        // "now" is one hour after snapshot 4: snapshots 1..3 are older than 'snapshot.time-retained'.
        SnapshotExpiration expiration = f.table.newSnapshotExpiration(TaggedSnapshots.NONE, () -> t4 + hour.toMillis());
        assertThat(expiration.expire(new ExpireConfig(1, Integer.MAX_VALUE, hour, 100, false, null))).isEqualTo(3);
        assertThat(f.snapshotIds()).containsExactly(4L, 5L, 6L);
        // With everything old, the minimum number still holds.
        SnapshotExpiration later = f.table.newSnapshotExpiration(TaggedSnapshots.NONE, () -> t4 + 10 * hour.toMillis());
        assertThat(later.expire(new ExpireConfig(2, Integer.MAX_VALUE, hour, 100, false, null))).isEqualTo(1);
        assertThat(f.snapshotIds()).containsExactly(5L, 6L);
        f.assertRetainedSnapshotsRead(5);
        f.assertFilesOnDiskAreExactlyReferenced(List.of());
    }

    @Test
    void theLimitBoundsEachRunAndLaterRunsFinish() throws Exception {
        ExpirationFixture f = manualTable();
        for (int i = 0; i < 4; i++) {
            sixSnapshots(f); // 24 snapshots
        }
        ExpireConfig limited = KEEP_TWO.withMaxDeletes(5);
        SnapshotExpiration expiration = f.table.newSnapshotExpiration();
        List<Integer> runs = new java.util.ArrayList<>();
        int n;
        while ((n = expiration.expire(limited)) > 0) {
            runs.add(n);
            f.assertRetainedSnapshotsRead(f.snapshotIds().get(0));
        }
        assertThat(runs).containsExactly(5, 5, 5, 5, 2);
        assertThat(f.snapshotIds()).containsExactly(23L, 24L);
        f.assertFilesOnDiskAreExactlyReferenced(List.of());
    }

    @Test
    void aTagKeepsTheFilesOfItsSnapshot() throws Exception {
        ExpirationFixture f = manualTable();
        sixSnapshots(f);
        Snapshot tagged = f.table.snapshotManager().snapshot(2);
        // A tag file as Paimon writes one with a retention time (docs/format.md §13.8).
        String json = SnapshotSerializer.toJson(tagged);
        String withRetention = json.substring(0, json.lastIndexOf('}')).stripTrailing()
                + ",\n  \"tagCreateTime\" : [ 2026, 11, 29, 16, 23, 19, 269250640 ],\n"
                + "  \"tagTimeRetained\" : 3600.000000000\n}";
        f.table.fileIO().overwrite(new Path(f.table.location(), "tag/tag-t1"),
                withRetention.getBytes(StandardCharsets.UTF_8));

        assertThat(f.table.newSnapshotExpiration().expire(KEEP_TWO)).isEqualTo(4);

        assertThat(f.snapshotIds()).containsExactly(5L, 6L);
        // The tagged snapshot's files are all there: it reads exactly its rows through its metadata.
        f.assertFilesOnDiskAreExactlyReferenced(List.of(tagged));
        assertThat(rowsOfTag(f, tagged)).isEqualTo(f.expectedRows.get(2L));
    }

    @Test
    void withoutTheTagTheSameFilesAreDeleted() throws Exception {
        ExpirationFixture f = manualTable();
        sixSnapshots(f);
        java.util.Set<String> before = f.filesOnDisk();
        assertThat(f.table.newSnapshotExpiration().expire(KEEP_TWO)).isEqualTo(4);
        f.assertFilesOnDiskAreExactlyReferenced(List.of());
        assertThat(f.filesOnDisk()).hasSizeLessThan(before.size());
    }

    /** Reads a tagged snapshot by putting its JSON back as a snapshot file of a copy of the table. */
    private List<String> rowsOfTag(ExpirationFixture f, Snapshot tagged) throws Exception {
        java.nio.file.Path copyDir = tmp.resolve("tag-copy");
        java.nio.file.Path source = tmp.resolve("t");
        try (java.util.stream.Stream<java.nio.file.Path> paths = java.nio.file.Files.walk(source)) {
            for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) paths::iterator) {
                java.nio.file.Path target = copyDir.resolve(source.relativize(p).toString());
                if (java.nio.file.Files.isDirectory(p)) {
                    java.nio.file.Files.createDirectories(target);
                } else {
                    java.nio.file.Files.copy(p, target);
                }
            }
        }
        Path copyRoot = new Path(copyDir.toString());
        LocalFileIO io = LocalFileIO.INSTANCE;
        for (long id : f.snapshotIds()) {
            io.delete(new Path(copyRoot, "snapshot/snapshot-" + id), false);
        }
        io.delete(new Path(copyRoot, "snapshot/EARLIEST"), false);
        io.delete(new Path(copyRoot, "snapshot/LATEST"), false);
        io.overwrite(new Path(copyRoot, "snapshot/snapshot-" + tagged.id()),
                SnapshotSerializer.toJson(tagged).getBytes(StandardCharsets.UTF_8));
        return TestTables.readAll(FileStoreTable.load(io, copyRoot, "default.copy"));
    }

    @Test
    void aConsumerKeepsTheSnapshotsItHasNotReadAndAnExpiredOneDoesNot() throws Exception {
        ExpirationFixture f = manualTable();
        sixSnapshots(f);
        new ConsumerManager(f.table.fileIO(), f.table.location()).commit("reader", 3);
        long now = System.currentTimeMillis();

        SnapshotExpiration expiration = f.table.newSnapshotExpiration(TaggedSnapshots.NONE, () -> now);
        ExpireConfig withConsumers = new ExpireConfig(1, Integer.MAX_VALUE, Duration.ZERO, 100, false,
                Duration.ofHours(1));
        assertThat(expiration.expireConsumers(withConsumers)).isZero();
        assertThat(expiration.expire(withConsumers)).isEqualTo(2);
        assertThat(f.snapshotIds()).containsExactly(3L, 4L, 5L, 6L);
        f.assertRetainedSnapshotsRead(3);

        // Two hours later the consumer has not moved: 'consumer.expiration-time' (1 h) expired it.
        SnapshotExpiration later = f.table.newSnapshotExpiration(TaggedSnapshots.NONE,
                () -> now + Duration.ofHours(2).toMillis());
        assertThat(later.expire(withConsumers)).isEqualTo(3);
        assertThat(f.snapshotIds()).containsExactly(6L);
        assertThat(later.expireConsumers(withConsumers)).isEqualTo(1);
        assertThat(new ConsumerManager(f.table.fileIO(), f.table.location()).list()).isEmpty();
        f.assertFilesOnDiskAreExactlyReferenced(List.of());
    }

    @Test
    void aReadOfAnExpiredSnapshotNamesTheOptionsToRaise() throws Exception {
        ExpirationFixture f = manualTable();
        sixSnapshots(f);
        f.table.newSnapshotExpiration().expire(KEEP_TWO);
        assertThat(f.rowsOf(5)).isEqualTo(f.expectedRows.get(5L));
        assertThatThrownBy(() -> f.rowsOf(2)).hasMessageContaining("snapshot 2")
                .hasMessageContaining("'snapshot.time-retained'").hasMessageContaining("'snapshot.num-retained.min'")
                .hasMessageContaining("'consumer-id'");
        // Snapshot files an interrupted expiration left behind EARLIEST are refused the same way.
        f.table.fileIO().overwrite(f.table.snapshotManager().earliestHintPath(), "6".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> f.rowsOf(5)).isInstanceOf(ExpiredSnapshotException.class);
    }

    @Test
    void theTableApiOverridesTheRetentionOptionsAsTheProcedureDoes() throws Exception {
        ExpirationFixture f = manualTable();
        sixSnapshots(f);
        assertThat(TableExpiration.forTable(f.table).expireSnapshots()).isZero();
        assertThat(TableExpiration.forTable(f.table).retainMin(1).retainMax(4).expireSnapshots()).isEqualTo(2);
        assertThat(TableExpiration.forTable(f.table).retainMin(1).maxDeletes(1)
                .olderThanMillis(System.currentTimeMillis() + 1000).expireSnapshots()).isEqualTo(1);
        assertThat(f.snapshotIds()).containsExactly(4L, 5L, 6L);
        assertThatThrownBy(() -> TableExpiration.forTable(f.table).retainMax(2).retainMin(3).expireSnapshots())
                .hasMessageContaining("'snapshot.num-retained.max' / retain_max) is smaller than the fewest (3");
        f.assertRetainedSnapshotsRead(4);
        f.assertFilesOnDiskAreExactlyReferenced(List.of());
    }
}
