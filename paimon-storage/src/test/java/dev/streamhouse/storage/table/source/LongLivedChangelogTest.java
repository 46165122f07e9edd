package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.maintenance.expire.ExpireConfig;
import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.FailingFileIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.streamhouse.storage.table.source.StreamFixture.drain;
import static dev.streamhouse.storage.table.source.StreamFixture.pk;
import static dev.streamhouse.storage.table.source.StreamFixture.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Long-lived changelog ({@code changelog.*} retention outliving snapshots, docs/format.md §10.3) on a
 * primary-key table with {@code changelog-producer = input}: expired snapshots leave
 * {@code changelog/changelog-<id>} behind, streaming and incremental reads read exactly their changes
 * from there, changelog expiration follows its limits, consumers and tags protect, failures part way
 * leave a readable table that the next run finishes, and the orphan cleaner keeps what entries need.
 */
class LongLivedChangelogTest {
    /** Keeps 2 snapshots, but the changelog of up to 100 (for an hour). */
    private static final ExpireConfig DECOUPLED =
            new ExpireConfig(2, 2, Duration.ZERO, 100, false, null, 100, 100, Duration.ofHours(1));

    @TempDir
    java.nio.file.Path tmp;

    private final FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);
    private StreamFixture fx;
    private FileStoreTable table;
    /** The changes each snapshot streams, read before any expiration. */
    private final Map<Long, List<String>> changes = new TreeMap<>();

    @BeforeEach
    void sixSnapshots() throws Exception {
        fx = new StreamFixture(tmp);
        table = fx.pkTable("bucket", "1", "changelog-producer", "input", "write-only", "true");
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "a"));
        fx.commit(table, pk(RowKind.UPDATE_AFTER, 1, 11, "a"));
        fx.commit(table, pk(RowKind.DELETE, 2, 20, "a"));
        fx.commit(table, pk(3, 30, "a"));
        fx.compactAll(table);
        fx.commit(table, pk(4, 40, "a"), pk(RowKind.UPDATE_AFTER, 3, 31, "a"));
        table = FileStoreTable.load(io, table.location(), "default.test");
        for (StreamFixture.Planned p : drain(streamFrom(table, 1), reader(table))) {
            changes.put(p.snapshotId(), p.rows());
        }
        assertThat(changes).hasSize(6);
        assertThat(changes.get(5L)).as("a compaction streams nothing with input changelog").isEmpty();
    }

    @AfterEach
    void release() {
        io.release();
    }

    private static ReadBuilder reader(FileStoreTable t) {
        return t.newReadBuilder();
    }

    private static StreamTableScan streamFrom(FileStoreTable t, long id) {
        return t.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", Long.toString(id)))
                .newReadBuilder().newStreamScan();
    }

    private Map<Long, List<String>> streamedFrom(long id) throws IOException {
        Map<Long, List<String>> out = new TreeMap<>();
        for (StreamFixture.Planned p : drain(streamFrom(table, id), reader(table))) {
            out.put(p.snapshotId(), p.rows());
        }
        return out;
    }

    private Map<Long, List<String>> changesFrom(long id) {
        return new TreeMap<>(changes.entrySet().stream().filter(e -> e.getKey() >= id)
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }

    private ChangelogManager changelogs() {
        return new ChangelogManager(LocalFileIO.INSTANCE, table.location());
    }

    private String hint(String name) throws IOException {
        return LocalFileIO.INSTANCE.readUtf8(new dev.streamhouse.storage.fs.Path(changelogs().changelogDirectory(),
                name)).trim();
    }

    /** The changelog files on disk are exactly those the retained snapshots and changelog entries name. */
    private void assertChangelogFilesExactlyReferenced() throws IOException {
        TreeSet<String> referenced = new TreeSet<>();
        List<Snapshot> all = new ArrayList<>();
        for (long id : table.snapshotManager().listSnapshotIds()) {
            all.add(table.snapshotManager().snapshot(id));
        }
        for (long id : changelogs().listChangelogIds()) {
            all.add(changelogs().changelog(id));
        }
        for (Snapshot s : all) {
            for (ManifestEntry e : table.snapshotEntries().changelogEntries(s, ManifestFilter.ALL)) {
                referenced.add(e.file().fileName());
            }
        }
        TreeSet<String> onDisk = new TreeSet<>();
        dev.streamhouse.storage.fs.Path bucket = new dev.streamhouse.storage.fs.Path(table.location(), "dt=a/bucket-0");
        for (FileStatus f : LocalFileIO.INSTANCE.list(bucket)) {
            if (f.path().name().startsWith("changelog-")) {
                onDisk.add(f.path().name());
            }
        }
        assertThat(onDisk).isEqualTo(referenced);
    }

    @Test
    void expiredSnapshotsLeaveTheirChangelogWhichStreamingAndIncrementalReadsReadExactly() throws Exception {
        StreamTableScan behind = streamFrom(table, 1);
        assertThat(StreamFixture.plan(behind, reader(table)).rows()).isEqualTo(changes.get(1L));

        assertThat(table.newSnapshotExpiration().expire(DECOUPLED)).isEqualTo(4);
        assertThat(table.snapshotManager().listSnapshotIds()).containsExactly(5L, 6L);
        assertThat(changelogs().listChangelogIds()).containsExactly(1L, 2L, 3L, 4L);
        assertThat(hint("EARLIEST")).isEqualTo("1");
        assertThat(hint("LATEST")).isEqualTo("4");

        // A reader that was behind continues through the changelog entries, a new one starts on them.
        assertThat(rows(drain(behind, reader(table)))).isEqualTo(flatten(changesFrom(2)));
        assertThat(streamedFrom(1)).isEqualTo(changes);
        assertThat(streamedFrom(3)).isEqualTo(changesFrom(3));

        // incremental-between over a changelog-only range reads the same changes.
        FileStoreTable incremental = table.copy(Map.of("incremental-between", "1,4",
                "incremental-between-scan-mode", "changelog"));
        ReadBuilder rb = incremental.newReadBuilder();
        assertThat(StreamFixture.read(rb, rb.newScan().plan().splits()))
                .isEqualTo(flatten(Map.of(2L, changes.get(2L), 3L, changes.get(3L), 4L, changes.get(4L))));
        assertThatThrownBy(() -> StreamFixture.read(rb, table.copy(Map.of("incremental-between", "1,4",
                "incremental-between-scan-mode", "delta")).newReadBuilder().newScan().plan().splits()))
                .hasMessageContaining("only its changelog is kept");
        assertChangelogFilesExactlyReferenced();
        assertThat(dev.streamhouse.storage.testutils.TestTables.readAll(table))
                .containsExactly("+I(4, 40, a)", "+U(1, 11, a)", "+U(3, 31, a)");

        // The orphan cleaner keeps what the entries need.
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        try (var paths = java.nio.file.Files.walk(java.nio.file.Path.of(table.location().toString()))) {
            paths.forEach(p -> p.toFile().setLastModified(twoDaysAgo));
        }
        TableOrphanFiles.of(table).clean(System.currentTimeMillis() - Duration.ofDays(1).toMillis(), false);
        assertChangelogFilesExactlyReferenced();
        assertThat(streamedFrom(1)).isEqualTo(changes);
    }

    private static List<String> flatten(Map<Long, List<String>> byId) {
        List<String> out = new ArrayList<>();
        new TreeMap<>(byId).values().forEach(out::addAll);
        return out;
    }

    @Test
    void changelogExpirationFollowsItsLimitsAndReadersBehindItGetTheExpiredError() throws Exception {
        table.newSnapshotExpiration().expire(DECOUPLED);
        // Keep the changelog of the newest 3 (4, 5, 6), at most 2 per run.
        ExpireConfig keepThree = new ExpireConfig(2, 2, Duration.ZERO, 2, false, null, 3, 3, Duration.ofHours(1));
        assertThat(table.newSnapshotExpiration().expireChangelogs(keepThree)).isEqualTo(2);
        assertThat(changelogs().listChangelogIds()).containsExactly(3L, 4L);
        assertThat(table.newSnapshotExpiration().expireChangelogs(keepThree)).isEqualTo(1);
        assertThat(table.newSnapshotExpiration().expireChangelogs(keepThree)).isZero();
        assertThat(changelogs().listChangelogIds()).containsExactly(4L);
        assertThat(hint("EARLIEST")).isEqualTo("4");
        assertChangelogFilesExactlyReferenced();

        assertThat(streamedFrom(4)).isEqualTo(changesFrom(4));
        assertThatThrownBy(() -> drain(streamFrom(table, 2), reader(table)))
                .isInstanceOfSatisfying(ExpiredSnapshotException.class, e -> assertThat(e.snapshotId()).isEqualTo(2))
                .hasMessageContaining("the earliest one still retained is 4")
                .hasMessageContaining("'changelog.num-retained.min'");

        // By time: every changelog is older than now.
        ExpireConfig byTime = new ExpireConfig(2, 2, Duration.ZERO, 100, false, null, 1, 100, Duration.ZERO);
        assertThat(table.newSnapshotExpiration().expireChangelogs(byTime)).isEqualTo(1);
        assertThat(changelogs().listChangelogIds()).isEmpty();
        assertChangelogFilesExactlyReferenced();
        assertThat(streamedFrom(5)).isEqualTo(changesFrom(5));
    }

    @Test
    void fromTimestampStartsOnTheFirstRetainedChangelogCommittedAtOrAfterIt() throws Exception {
        Map<Long, Long> times = new TreeMap<>();
        for (long id = 1; id <= 6; id++) {
            times.put(id, table.snapshotManager().snapshot(id).timeMillis());
        }
        table.newSnapshotExpiration().expire(DECOUPLED);
        long timestamp = times.get(3L);
        long expectedStart = times.entrySet().stream().filter(e -> e.getValue() >= timestamp).findFirst()
                .orElseThrow().getKey();
        Map<Long, List<String>> out = new TreeMap<>();
        StreamTableScan scan = table.copy(Map.of("scan.mode", "from-timestamp", "scan.timestamp-millis",
                Long.toString(timestamp))).newReadBuilder().newStreamScan();
        for (StreamFixture.Planned p : drain(scan, reader(table))) {
            out.put(p.snapshotId(), p.rows());
        }
        assertThat(out).isEqualTo(changesFrom(expectedStart));
        assertThat(expectedStart).isLessThan(5);
    }

    @Test
    void aLiveConsumerProtectsTheChangelogItReads() throws Exception {
        table.newSnapshotExpiration().expire(DECOUPLED);
        new ConsumerManager(LocalFileIO.INSTANCE, table.location()).commit("slow", 3);
        assertThat(table.newSnapshotExpiration().expireAllChangelogs(DECOUPLED)).isEqualTo(2);
        assertThat(changelogs().listChangelogIds()).containsExactly(3L, 4L);
        assertThat(streamedFrom(3)).isEqualTo(changesFrom(3));
    }

    @Test
    void aTagKeepsTheFilesOfItsSnapshotWhenItsChangelogExpires() throws Exception {
        table.tagManager().create("t2", table.snapshotManager().snapshot(2), null);
        List<String> tagged = dev.streamhouse.storage.testutils.TestTables.readAll(
                table.copy(Map.of("scan.tag-name", "t2")));
        table.newSnapshotExpiration().expire(DECOUPLED);
        assertThat(table.newSnapshotExpiration().expireAllChangelogs(DECOUPLED)).isEqualTo(4);
        assertThat(changelogs().listChangelogIds()).isEmpty();
        assertThat(dev.streamhouse.storage.testutils.TestTables.readAll(table.copy(Map.of("scan.tag-name", "t2"))))
                .isEqualTo(tagged).containsExactly("+I(2, 20, a)", "+U(1, 11, a)");
        assertThat(streamedFrom(5)).isEqualTo(changesFrom(5));
    }

    @Test
    void withoutAChangelogProducerTheEntriesKeepTheDeltaTheyAreReadFrom() throws Exception {
        FileStoreTable none = fx.pkTable("bucket", "1", "write-only", "true");
        fx.commit(none, pk(1, 10, "a"), pk(2, 20, "a"));
        fx.commit(none, pk(RowKind.UPDATE_AFTER, 1, 11, "a"));
        fx.compactAll(none);
        fx.commit(none, pk(3, 30, "a"));
        fx.compactAll(none);
        fx.commit(none, pk(4, 40, "a"));
        Map<Long, List<String>> before = new TreeMap<>();
        for (StreamFixture.Planned p : drain(streamFrom(none, 1), reader(none))) {
            before.put(p.snapshotId(), p.rows());
        }
        assertThat(none.newSnapshotExpiration().expire(DECOUPLED)).isEqualTo(4);
        assertThat(new ChangelogManager(LocalFileIO.INSTANCE, none.location()).listChangelogIds())
                .containsExactly(1L, 2L, 3L, 4L);
        Map<Long, List<String>> after = new TreeMap<>();
        for (StreamFixture.Planned p : drain(streamFrom(none, 1), reader(none))) {
            after.put(p.snapshotId(), p.rows());
        }
        assertThat(after).as("the compacted-away data files of snapshots 1 and 2 were kept").isEqualTo(before);
        assertThat(after.get(1L)).containsExactly("+I(1, 10, a)", "+I(2, 20, a)");

        // Once their changelog expires, those files go; what the retained snapshots need stays.
        assertThat(none.newSnapshotExpiration().expireAllChangelogs(DECOUPLED)).isEqualTo(4);
        assertThat(dev.streamhouse.storage.testutils.TestTables.readAll(none))
                .containsExactly("+I(2, 20, a)", "+I(3, 30, a)", "+I(4, 40, a)", "+U(1, 11, a)");
        long dataFiles;
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of(none.location().toString(), "dt=a",
                "bucket-0"))) {
            dataFiles = files.filter(f -> f.getFileName().toString().startsWith("data-")).count();
        }
        long live = none.snapshotEntries().liveEntries(none.snapshotManager().snapshot(5), ManifestFilter.ALL).size()
                + none.snapshotEntries().deltaEntries(none.snapshotManager().snapshot(6), ManifestFilter.ALL).size();
        assertThat(dataFiles).isEqualTo(live);
    }

    @Test
    void notDecoupledTheChangelogExpiresWithItsSnapshot() throws Exception {
        ExpireConfig coupled = new ExpireConfig(2, 2, Duration.ZERO, 100, false, null);
        assertThat(coupled.changelogDecoupled()).isFalse();
        assertThat(table.newSnapshotExpiration().expire(coupled)).isEqualTo(4);
        assertThat(changelogs().listChangelogIds()).isEmpty();
        assertChangelogFilesExactlyReferenced();
        assertThatThrownBy(() -> drain(streamFrom(table, 2), reader(table)))
                .isInstanceOf(ExpiredSnapshotException.class);
    }

    @Test
    void theNthCallOfAnExpirationFailsForEveryNTheTableStaysReadableAndTheNextRunFinishes() throws Exception {
        java.nio.file.Path pristine = tmp.resolve("pristine");
        copy(java.nio.file.Path.of(table.location().toString()), pristine);
        ExpireConfig keepTwoChangelogs =
                new ExpireConfig(2, 2, Duration.ZERO, 100, false, null, 4, 4, Duration.ofHours(1));
        int points = 0;
        for (int n = 1; ; n++) {
            java.nio.file.Path dir = java.nio.file.Path.of(table.location().toString());
            deleteRecursively(dir);
            copy(pristine, dir);
            FileStoreTable failing = FileStoreTable.load(io, table.location(), "default.test");
            io.arm(n);
            try {
                failing.newSnapshotExpiration().expire(DECOUPLED);
                failing.newSnapshotExpiration().expireChangelogs(keepTwoChangelogs);
            } catch (IOException | RuntimeException e) {
                // Expected for most n: checked below.
            }
            boolean injected = !io.isArmed();
            io.disarm();
            // Every change a reader can still start on reads exactly as before.
            Long earliestChangelog = changelogs().earliestChangelogId();
            long from = earliestChangelog != null ? earliestChangelog
                    : table.snapshotManager().earliestSnapshotId();
            assertThat(streamedFrom(from)).as("failure at call %s", n).isEqualTo(changesFrom(from));
            if (!injected) {
                break;
            }
            points++;
            table.newSnapshotExpiration().expire(DECOUPLED);
            table.newSnapshotExpiration().expireChangelogs(keepTwoChangelogs);
            assertThat(table.snapshotManager().listSnapshotIds()).as("failure at call %s", n).containsExactly(5L, 6L);
            assertThat(changelogs().listChangelogIds()).as("failure at call %s", n).containsExactly(3L, 4L);
            assertThat(streamedFrom(3)).isEqualTo(changesFrom(3));
            assertChangelogFilesExactlyReferenced();
        }
        assertThat(points).isGreaterThan(10);
    }

    private static void copy(java.nio.file.Path from, java.nio.file.Path to) throws IOException {
        try (var paths = java.nio.file.Files.walk(from)) {
            for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) paths::iterator) {
                java.nio.file.Path target = to.resolve(from.relativize(p).toString());
                if (java.nio.file.Files.isDirectory(p)) {
                    java.nio.file.Files.createDirectories(target);
                } else {
                    java.nio.file.Files.copy(p, target);
                }
            }
        }
    }

    private static void deleteRecursively(java.nio.file.Path dir) throws IOException {
        try (var paths = java.nio.file.Files.walk(dir)) {
            List<java.nio.file.Path> all = paths.sorted(java.util.Comparator.reverseOrder()).toList();
            for (java.nio.file.Path p : all) {
                java.nio.file.Files.delete(p);
            }
        }
    }
}
