package dev.streamhouse.storage.maintenance.orphan;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.maintenance.partition.TablePartitionMarkDone;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotSerializer;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.testutils.TestTables;

import static dev.streamhouse.storage.testutils.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Orphan removal on real files: it removes planted orphans older than {@code older_than} in data,
 * manifest, index and statistics directories, keeps younger ones, keeps every file a snapshot or a tag
 * (whose snapshot is gone) needs, and never touches metadata, hints, consumers or success files.
 */
class TableOrphanFilesTest {
    private static final long TWO_DAYS = TimeUnit.DAYS.toMillis(2);

    @TempDir
    java.nio.file.Path dir;

    private java.nio.file.Path root;
    private FileStoreTable table;
    /** The manifest lists of snapshot 1, which nothing references once it is gone. */
    private List<String> expiredLists;

    @BeforeEach
    void setUp() throws Exception {
        root = dir.resolve("db.db/t");
        table = TestTables.create(LocalFileIO.INSTANCE, new Path(root.toString()), TestTables.simpleSchema(
                "bucket", "1", "bucket-key", "id"));
        TestTables.write(table, List.of(row(1, "a", "p1"), row(2, "b", "p2")));      // snapshot 1
        TestTables.write(table, List.of(row(3, "c", "p2")));                          // snapshot 2
        // tag t1 on snapshot 2, then drop p1 and make snapshots 1 and 2 disappear as expiration would:
        // p1's files are now needed by the tag only. Its retention (100 years) outlives the tag
        // expiration that runs after the later commits.
        Snapshot two = table.snapshot(2).get();
        String json = SnapshotSerializer.toJson(two);
        String tag = json.substring(0, json.lastIndexOf('}')).stripTrailing()
                + ",\n  \"tagCreateTime\" : [ 2026, 11, 29, 16, 23, 19, 269250640 ],\n"
                + "  \"tagTimeRetained\" : 3153600000.000000000\n}";
        write("tag/tag-t1", tag);
        try (BatchTableCommit c = table.newBatchCommit()) {
            c.dropPartitions(List.of(Map.of("dt", "p1")));                            // snapshot 3
        }
        TestTables.write(table, List.of(row(4, "d", "p2")));                          // snapshot 4
        Snapshot one = table.snapshot(1).get();
        expiredLists = List.of("manifest/" + one.baseManifestList(), "manifest/" + one.deltaManifestList());
        Files.delete(root.resolve("snapshot/snapshot-1"));
        Files.delete(root.resolve("snapshot/snapshot-2"));
        Files.writeString(root.resolve("snapshot/EARLIEST"), "3");
        new ConsumerManager(table.fileIO(), table.location()).commit("reader", 4);
        TablePartitionMarkDone.of(table).markDone(List.of(Map.of("dt", "p2")), 1L);
    }

    private java.nio.file.Path write(String relative, String content) throws Exception {
        java.nio.file.Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    private java.nio.file.Path plantOld(String relative) throws Exception {
        java.nio.file.Path p = write(relative, "orphan " + relative);
        Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - TWO_DAYS));
        return p;
    }

    private TreeSet<String> allFiles() throws Exception {
        try (Stream<java.nio.file.Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** Makes every existing file old, so only references protect them. */
    private void ageEverything() throws Exception {
        for (String f : allFiles()) {
            Files.setLastModifiedTime(root.resolve(f), FileTime.fromMillis(System.currentTimeMillis() - TWO_DAYS));
        }
    }

    private static long oneDayAgo() {
        return System.currentTimeMillis() - TimeUnit.DAYS.toMillis(1);
    }

    @Test
    void removesOldOrphansAndKeepsWhatSnapshotsAndTagsNeed() throws Exception {
        List<String> before = TestTables.readAll(table);
        ageEverything();
        TreeSet<String> needed = allFiles();
        needed.removeAll(expiredLists);
        assertThat(needed).anyMatch(f -> f.startsWith("dt=p1/bucket-0/data-")); // only the tag needs these

        List<String> orphans = new ArrayList<>();
        for (String f : List.of("dt=p2/bucket-0/data-" + java.util.UUID.randomUUID() + "-0.parquet",
                "dt=p1/bucket-0/.data-x.parquet.tmp", "manifest/manifest-" + java.util.UUID.randomUUID() + "-0",
                "manifest/manifest-list-" + java.util.UUID.randomUUID() + "-0", "index/index-abc-0",
                "statistics/stat-abc-0", "dt=p9/bucket-3/data-gone-0.parquet")) {
            plantOld(f);
            orphans.add(f);
        }
        java.nio.file.Path young = write("dt=p2/bucket-0/data-inflight-0.parquet", "being written");
        // metadata, hints and foreign files in protected places are never candidates, however old
        for (String f : List.of("snapshot/snapshot-99-tmp", "schema/schema-7", "tag/junk", "consumer/consumer-x",
                "changelog/LATEST", "branch/branch-b/snapshot/x", "README", "tag-success-file/t1_SUCCESS",
                "someone-elses/notes.txt", "bucket-0/not-a-bucket-of-a-partitioned-table")) {
            plantOld(f);
        }
        orphans.addAll(expiredLists);
        long orphanBytes = 0;
        for (String f : orphans) {
            orphanBytes += Files.size(root.resolve(f));
        }

        TableOrphanFiles.Result dry = TableOrphanFiles.of(table).clean(oneDayAgo(), true);
        assertThat(dry.deletedFiles()).extracting(p -> root.relativize(java.nio.file.Path.of(p.toString())).toString())
                .containsExactlyInAnyOrderElementsOf(orphans);
        assertThat(allFiles()).containsAll(orphans);

        TableOrphanFiles.Result result = TableOrphanFiles.of(table).clean(oneDayAgo(), false);
        assertThat(result.deletedFileCount()).isEqualTo(orphans.size());
        assertThat(result.deletedBytes()).isEqualTo(orphanBytes);
        TreeSet<String> after = allFiles();
        assertThat(after).containsAll(needed).doesNotContainAnyElementsOf(orphans);
        assertThat(Files.exists(young)).isTrue();
        assertThat(after).contains("snapshot/LATEST", "snapshot/EARLIEST", "tag/tag-t1", "consumer/consumer-reader",
                "dt=p2/_SUCCESS", "schema/schema-7", "changelog/LATEST", "README", "tag-success-file/t1_SUCCESS",
                "someone-elses/notes.txt", "bucket-0/not-a-bucket-of-a-partitioned-table");
        assertThat(TestTables.readAll(table)).isEqualTo(before);

        assertThat(TableOrphanFiles.of(table).clean(oneDayAgo(), false).deletedFiles()).isEmpty();
    }

    @Test
    void directoryRunsRemoveWhatTheLocalRunRemoves() throws Exception {
        List<String> before = TestTables.readAll(table);
        ageEverything();
        List<String> orphans = new ArrayList<>(expiredLists);
        for (String f : List.of("dt=p2/bucket-0/data-orphan-a-0.parquet", "dt=p1/bucket-0/data-orphan-b-0.parquet",
                "manifest/manifest-orphan-c-0", "index/index-orphan-d-0", "statistics/stat-orphan-e-0")) {
            plantOld(f);
            orphans.add(f);
        }
        java.nio.file.Path young = write("dt=p1/bucket-0/data-young-0.parquet", "being written");
        TableOrphanFiles cleaner = TableOrphanFiles.of(table);
        assertThat(cleaner.searchedDirectories()).containsExactly("dt=p1", "dt=p2", "index", "manifest", "statistics");

        // dry, then for real; two runs (as two workers) share the directories
        List<String> dryFiles = new ArrayList<>();
        TableOrphanFiles.DirectoryRun dry = cleaner.newDirectoryRun(oneDayAgo(), true);
        for (String d : cleaner.searchedDirectories()) {
            dry.clean(d).deletedFiles().forEach(p -> dryFiles.add(relative(p)));
        }
        assertThat(dryFiles).containsExactlyInAnyOrderElementsOf(orphans);
        assertThat(allFiles()).containsAll(orphans);

        TableOrphanFiles.DirectoryRun one = cleaner.newDirectoryRun(oneDayAgo(), false);
        TableOrphanFiles.DirectoryRun two = cleaner.newDirectoryRun(oneDayAgo(), false);
        long files = 0;
        List<String> dirs = cleaner.searchedDirectories();
        for (int i = 0; i < dirs.size(); i++) {
            files += (i % 2 == 0 ? one : two).clean(dirs.get(i)).deletedFileCount();
        }
        assertThat(files).isEqualTo(orphans.size());
        assertThat(allFiles()).doesNotContainAnyElementsOf(orphans);
        assertThat(Files.exists(young)).isTrue();
        assertThat(TestTables.readAll(table)).isEqualTo(before);
    }

    @Test
    void aDirectoryRunReadsSnapshotsCommittedAfterItsFirstDirectory() throws Exception {
        ageEverything();
        TableOrphanFiles cleaner = TableOrphanFiles.of(table);
        TableOrphanFiles.DirectoryRun run = cleaner.newDirectoryRun(oneDayAgo(), false);
        assertThat(run.clean("statistics").deletedFiles()).isEmpty(); // reads all metadata of snapshots 3 and 4

        TestTables.write(table, List.of(row(5, "e", "p2")));                          // snapshot 5
        ageEverything(); // snapshot 5's files are old now, and only snapshot 5 references its new ones
        List<String> before = TestTables.readAll(table);
        run.clean("dt=p2");
        run.clean("manifest");
        assertThat(TestTables.readAll(table)).isEqualTo(before).contains(TestTables.show(List.of(row(5, "e", "p2"))).get(0));
    }

    @Test
    void aDirectoryRunRefusesMetadataDirectories() {
        TableOrphanFiles.DirectoryRun run = TableOrphanFiles.of(table).newDirectoryRun(oneDayAgo(), true);
        for (String d : List.of("snapshot", "tag", "consumer", "changelog", "branch", "schema", "dt=p2/bucket-0", "..",
                "tag-success-file", "someone-elses", "")) {
            assertThatThrownBy(() -> run.clean(d)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + d + "'");
        }
        assertThatThrownBy(() -> TableOrphanFiles.of(table).newDirectoryRun(System.currentTimeMillis() + 60_000, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be in the past");
    }

    private String relative(Path p) {
        return root.relativize(java.nio.file.Path.of(p.toString())).toString();
    }

    @Test
    void aMissingManifestStopsTheRunBeforeAnythingIsDeleted() throws Exception {
        ageEverything();
        java.nio.file.Path orphan = plantOld("manifest/manifest-orphan-0");
        Snapshot four = table.snapshot(4).get();
        Files.delete(root.resolve("manifest/" + four.deltaManifestList()));

        assertThatThrownBy(() -> TableOrphanFiles.of(table).clean(oneDayAgo(), false))
                .hasMessageContaining("snapshot-4").hasMessageContaining("missing");
        assertThat(Files.exists(orphan)).isTrue();
    }

    @Test
    void anUnreadableTagStopsTheRunBeforeAnythingIsDeleted() throws Exception {
        ageEverything();
        java.nio.file.Path orphan = plantOld("manifest/manifest-orphan-0");
        write("tag/tag-broken", "{ not json");

        assertThatThrownBy(() -> TableOrphanFiles.of(table).clean(oneDayAgo(), false))
                .hasMessageContaining("tag-broken").hasMessageContaining("references are unknown");
        assertThat(Files.exists(orphan)).isTrue();
    }

    @Test
    void olderThanMustBeInThePast() {
        assertThatThrownBy(() -> TableOrphanFiles.of(table).clean(System.currentTimeMillis() + 60_000, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be in the past");
    }
}
