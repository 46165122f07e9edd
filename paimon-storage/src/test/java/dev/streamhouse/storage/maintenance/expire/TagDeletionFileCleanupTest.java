package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.maintenance.tag.Tag;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableScan;
import dev.streamhouse.storage.testutils.TableFileOracle;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deleting tags ({@code delete_tag} with one or several names, {@code expire_tags}, tag expiration
 * after commits, {@code tag.num-retained-max}) deletes the files only those tags used, and nothing a
 * retained snapshot, another tag or a long-lived changelog entry needs.
 */
class TagDeletionFileCleanupTest {
    @TempDir
    java.nio.file.Path tmp;

    private HistoryFixture pkTable(String... options) throws Exception {
        return new HistoryFixture(TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()),
                HistoryFixture.pkSchema(options)));
    }

    /** Snapshots 1 (tagged "one" and "uno"), 2 (tagged "two"), then rewrites and expiration of both. */
    private HistoryFixture twoExpiredTags() throws Exception {
        HistoryFixture h = pkTable();
        h.upsert(0, 10, "a");
        TableTags.of(h.table).create("one", 1L, null);
        TableTags.of(h.table).create("uno", 1L, null);
        h.upsert(5, 15, "b");
        TableTags.of(h.table).create("two", 2L, null);
        h.upsert(0, 20, "c");
        h.compact(true);
        h.upsert(3, 4, "d");
        TableExpiration.forTable(h.table).retainMin(1).retainMax(1).expireSnapshots();
        assertThat(h.retainedSnapshots()).containsExactly(h.latestId());
        h.assertFilesExactlyNeeded("before deleting tags");
        return h;
    }

    @Test
    void deletingTagsDeletesTheFilesOnlyTheyUsedAndAnotherTagOfTheSameSnapshotKeepsThem() throws Exception {
        HistoryFixture h = twoExpiredTags();
        Set<String> before = TableFileOracle.filesOnDisk(h.table);
        // "one,two" as delete_tag takes them: "uno" still holds snapshot 1
        assertThat(TableTags.of(h.table).delete(List.of("one", "missing", "two"))).containsExactly("one", "two");
        h.assertEverythingReads("after deleting one and two");
        h.assertFilesExactlyNeeded("after deleting one and two");
        Set<String> afterTwo = TableFileOracle.filesOnDisk(h.table);
        assertThat(afterTwo).hasSizeLessThan(before.size());

        assertThat(TableTags.of(h.table).delete(List.of("uno"))).containsExactly("uno");
        h.assertEverythingReads("after deleting uno");
        h.assertFilesExactlyNeeded("after deleting uno");
        assertThat(TableFileOracle.filesOnDisk(h.table)).hasSizeLessThan(afterTwo.size());
    }

    @Test
    void aTagOfARetainedSnapshotFreesNothing() throws Exception {
        HistoryFixture h = pkTable();
        h.upsert(0, 10, "a");
        h.upsert(5, 15, "b");
        TableTags.of(h.table).create("first", 1L, null);
        Set<String> before = TableFileOracle.filesOnDisk(h.table);
        TableTags.of(h.table).delete(List.of("first"));
        assertThat(TableFileOracle.filesOnDisk(h.table)).isEqualTo(before);
        h.assertEverythingReads("after deleting the tag");
    }

    @Test
    void aFileTheTagHeldThatALaterSnapshotUpgradedStays() throws Exception {
        HistoryFixture h = pkTable();
        h.upsert(0, 10, "a");
        TableTags.of(h.table).create("one", 1L, null);
        h.compact(true);
        assertThat(h.upgrades(2)).as("the full compaction upgrades the level-0 file in place").isTrue();
        h.upsert(20, 25, "b");
        TableExpiration.forTable(h.table).retainMin(1).retainMax(1).expireSnapshots();
        assertThat(h.retainedSnapshots()).containsExactly(3L);

        TableTags.of(h.table).delete(List.of("one"));
        h.assertEverythingReads("after deleting the tag");
        h.assertFilesExactlyNeeded("after deleting the tag");
    }

    @Test
    void aLongLivedChangelogEntryKeepsTheDataFilesItReadsWhenTheTagGoes() throws Exception {
        // changelog-producer none: an entry's changes are the data files its snapshot added
        HistoryFixture h = pkTable("snapshot.num-retained.min", "1", "snapshot.num-retained.max", "1",
                "changelog.num-retained.max", "50");
        h.upsert(0, 10, "a");
        h.upsert(5, 15, "b");
        TableTags.of(h.table).create("two", 2L, null);
        h.compact(true);
        h.upsert(20, 22, "c");
        ChangelogManager changelogs = new ChangelogManager(LocalFileIO.INSTANCE, h.table.location());
        assertThat(changelogs.listChangelogIds()).contains(1L, 2L);
        List<String> streamed = streamFromSnapshot1(h.table);
        assertThat(streamed).hasSizeGreaterThanOrEqualTo(20);

        TableTags.of(h.table).delete(List.of("two"));
        h.assertEverythingReads("after deleting the tag");
        h.assertFilesExactlyNeeded("after deleting the tag");
        assertThat(streamFromSnapshot1(h.table)).as("the changes streamed from changelog/").isEqualTo(streamed);
    }

    /** Every row a streaming read from snapshot 1 returns until it is caught up, in order. */
    private static List<String> streamFromSnapshot1(FileStoreTable table) throws Exception {
        ReadBuilder rb = table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")).newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        List<String> out = new ArrayList<>();
        while (true) {
            TableScan.Plan plan = scan.plan();
            if (plan.snapshotId() == null) {
                return out;
            }
            rb.newRead().createReader(plan.splits()).forEachRemaining(r ->
                    out.add(r.rowKind() + " " + InternalRowUtils.copyToGeneric(r, rb.readType())));
        }
    }

    @Test
    void expireTagsAndTheirRetentionAfterCommitsDeleteTheFilesToo() throws Exception {
        HistoryFixture h = twoExpiredTags();
        FileStoreTable table = h.table;
        Snapshot one = TableTags.of(table).get("one").orElseThrow().snapshot();
        Snapshot two = TableTags.of(table).get("two").orElseThrow().snapshot();
        // expire_tags with older_than: every tag created before it
        table.tagManager().write("one", new Tag(one, LocalDateTime.now().minusDays(3), Duration.ofDays(30)));
        table.tagManager().write("uno", new Tag(one, LocalDateTime.now().minusDays(3), Duration.ofDays(30)));
        assertThat(TableTags.of(table).expire(LocalDateTime.now().minusDays(1))).containsExactly("one", "uno");
        h.assertEverythingReads("after expire_tags");
        h.assertFilesExactlyNeeded("after expire_tags");

        // a retention that passed: the tag goes after the next commit, with its files
        table.tagManager().write("two", new Tag(two, LocalDateTime.now().minusDays(2), Duration.ofDays(1)));
        h.upsert(30, 31, "e");
        assertThat(TableTags.of(table).list()).isEmpty();
        h.assertEverythingReads("after the commit that expired the tag");
        h.assertFilesExactlyNeeded("after the commit that expired the tag");
    }

    @Test
    void tagsBeyondTheRetainedMaximumGoWithTheirFiles() throws Exception {
        HistoryFixture h = twoExpiredTags();
        FileStoreTable batchTagged = h.table.copy(Map.of("tag.automatic-creation", "batch",
                "tag.num-retained-max", "1"));
        HistoryFixture b = new HistoryFixture(batchTagged);
        b.upsert(40, 41, "f");
        assertThat(TableTags.of(h.table).list()).singleElement()
                .satisfies(t -> assertThat(t.name()).startsWith("batch-write-"));
        assertThat(TableFileOracle.filesOnDisk(h.table)).isEqualTo(TableFileOracle.neededFiles(h.table));
    }
}
