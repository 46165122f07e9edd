package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.testutils.TableFileOracle;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rollback deletes the files only the removed snapshots, changelog entries and tags used, and
 * nothing a remaining snapshot or tag needs: in particular not a file the target holds that a later
 * compaction upgraded to another level under the same name.
 */
class RollbackFileCleanupTest {
    @TempDir
    java.nio.file.Path tmp;

    private HistoryFixture pkTable(String... options) throws Exception {
        return new HistoryFixture(TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()),
                HistoryFixture.pkSchema(options)));
    }

    @Test
    void aFileTheTargetHoldsThatALaterSnapshotUpgradedStays() throws Exception {
        HistoryFixture h = pkTable();
        h.upsert(0, 10, "a");
        Set<String> target = TableFileOracle.filesOnDisk(h.table);
        long compacted = h.compact(true);
        assertThat(compacted).isEqualTo(2);
        assertThat(h.upgrades(2)).as("the full compaction upgrades the level-0 file in place").isTrue();
        h.upsert(5, 15, "b");
        h.compact(true);
        assertThat(TableFileOracle.filesOnDisk(h.table)).hasSizeGreaterThan(target.size());

        assertThat(TableRollback.of(h.table).toSnapshot(1)).isEqualTo(new TableRollback.Result(4, 1));
        h.rolledBackTo(1);
        h.assertEverythingReads("after the rollback to 1");
        h.assertFilesExactlyNeeded("after the rollback to 1");
        assertThat(TableFileOracle.filesOnDisk(h.table)).isEqualTo(target);
    }

    @Test
    void rollbackOfADeletionVectorTableDeletesTheLaterIndexFilesAndKeepsTheTargets() throws Exception {
        HistoryFixture h = pkTable("deletion-vectors.enabled", "true", "changelog-producer", "input");
        h.upsert(0, 20, "a");
        h.upsert(0, 10, "b");
        h.compact(false);
        long target = h.upsert(5, 15, "c");
        TableTags.of(h.table).create("kept", target, null);
        h.upsert(0, 5, "d");
        h.compact(false);
        h.upsert(10, 30, "e");
        h.compact(true);
        TableTags.of(h.table).create("later", h.latestId(), null);
        assertThat(TableFileOracle.filesOnDisk(h.table)).anyMatch(f -> f.startsWith("index/"));

        TableRollback.of(h.table).toSnapshot(target);
        h.rolledBackTo(target);
        assertThat(TableTags.of(h.table).list()).extracting(TableTags.TagInfo::name).containsExactly("kept");
        h.assertEverythingReads("after the rollback");
        h.assertFilesExactlyNeeded("after the rollback");
        // The writer goes on from the target.
        h.upsert(40, 45, "f");
        h.compact(true);
        h.assertEverythingReads("after writing on");
    }

    @Test
    void rollbackToATagWhoseSnapshotExpiredDeletesLaterChangelogEntriesAndTheirFiles() throws Exception {
        HistoryFixture h = pkTable("changelog-producer", "input", "snapshot.num-retained.min", "1",
                "snapshot.num-retained.max", "2", "changelog.num-retained.max", "50");
        h.upsert(0, 10, "a");
        h.upsert(5, 15, "b");
        TableTags.of(h.table).create("two", 2L, null);
        for (int i = 0; i < 5; i++) {
            h.upsert(i * 3, i * 3 + 4, "c" + i);
        }
        h.compact(true);
        ChangelogManager changelogs = new ChangelogManager(LocalFileIO.INSTANCE, h.table.location());
        assertThat(changelogs.listChangelogIds()).as("expired snapshots left their changelogs").contains(2L, 3L, 4L);
        assertThat(h.table.snapshotManager().snapshotExists(2)).isFalse();

        assertThat(TableRollback.of(h.table).toTag("two").currentSnapshotId()).isEqualTo(2);
        h.rolledBackTo(2);
        assertThat(changelogs.listChangelogIds()).allMatch(id -> id <= 2);
        assertThat(h.retainedSnapshots()).containsExactly(2L);
        h.assertEverythingReads("after the rollback to the tag");
        h.assertFilesExactlyNeeded("after the rollback to the tag");
    }

    @Test
    void aTableWithBranchesKeepsItsFilesButStillRollsBack() throws Exception {
        HistoryFixture h = pkTable();
        h.upsert(0, 10, "a");
        h.upsert(5, 15, "b");
        Files.createDirectories(tmp.resolve("t/branch/branch-b/snapshot"));
        Set<String> before = TableFileOracle.filesOnDisk(h.table);
        TableRollback.of(h.table).toSnapshot(1);
        h.rolledBackTo(1);
        h.assertEverythingReads("after the rollback");
        assertThat(TableFileOracle.filesOnDisk(h.table)).as("a branch may share them").isEqualTo(before);
    }

    @Test
    void expiredSnapshotsOfAppendTablesAndOverwritesRollBackCleanly() throws Exception {
        Schema schema = TestTables.simpleSchema("snapshot.num-retained.min", "1", "snapshot.num-retained.max", "3");
        ExpirationFixture f = new ExpirationFixture(TestTables.create(LocalFileIO.INSTANCE,
                new Path(tmp.resolve("a").toString()), schema));
        f.append(4);
        long tagged = f.overwriteD0(2);
        TableTags.of(f.table).create("t", tagged, null);
        f.append(3);
        f.overwriteD0(3);
        f.append(2);
        TableExpiration.forTable(f.table).retainMin(1).retainMax(1).expireSnapshots();
        assertThat(f.table.snapshotManager().snapshotExists(tagged)).isFalse();

        TableRollback.of(f.table).toTag("t");
        assertThat(f.rowsOf(tagged)).isEqualTo(f.expectedRows.get(tagged));
        assertThat(TableFileOracle.filesOnDisk(f.table)).isEqualTo(TableFileOracle.neededFiles(f.table));
    }
}
