package dev.streamhouse.storage.table;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.snapshot.BaseSnapshotRemovedException;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.snapshot.SnapshotPublisher;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.system.SystemTables;
import dev.streamhouse.storage.testutils.TestTables;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reads by tag, {@code t$tags} and rollback on real files. */
class TagsAndRollbackTest {
    @TempDir
    java.nio.file.Path dir;

    private FileStoreTable table;

    /** Snapshots 1..n, snapshot i adding ids 10*i and 10*i+1. */
    private void snapshots(int n) throws Exception {
        table = TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/t"), TestTables.simpleSchema());
        for (int i = 1; i <= n; i++) {
            TestTables.write(table, TestTables.rows(i * 10, 2, 2));
        }
    }

    private List<String> expectedUpTo(int snapshot) {
        List<InternalRow> rows = new ArrayList<>();
        for (int i = 1; i <= snapshot; i++) {
            rows.addAll(TestTables.rows(i * 10, 2, 2));
        }
        return TestTables.show(rows);
    }

    private java.nio.file.Path file(String relative) {
        return java.nio.file.Path.of(dir.toString(), "db.db/t", relative);
    }

    @Test
    void aTagReadsItsSnapshotAlsoAfterTheSnapshotFileIsGone() throws Exception {
        snapshots(3);
        TableTags.of(table).create("first", 1L, null);
        TableTags.of(table).create("2", 2L, null);
        assertThat(TestTables.readAll(table.copy(Map.of("scan.tag-name", "first")))).isEqualTo(expectedUpTo(1));
        // scan.version: a tag of that name first, then a snapshot id
        assertThat(TestTables.readAll(table.copy(Map.of("scan.version", "first")))).isEqualTo(expectedUpTo(1));
        assertThat(TestTables.readAll(table.copy(Map.of("scan.version", "3")))).isEqualTo(expectedUpTo(3));
        assertThat(TestTables.readAll(table.copy(Map.of("scan.version", "2")))).isEqualTo(expectedUpTo(2));
        assertThatThrownBy(() -> table.copy(Map.of("scan.version", "nope")).newReadBuilder())
                .hasMessageContaining("there is no tag of that name and it is not a snapshot id");

        Files.delete(file("snapshot/snapshot-1"));
        assertThat(TestTables.readAll(table.copy(Map.of("scan.tag-name", "first")))).isEqualTo(expectedUpTo(1));
        assertThatThrownBy(() -> TestTables.readAll(table.copy(Map.of("scan.tag-name", "missing"))))
                .hasMessageContaining("Cannot read tag 'missing'").hasMessageContaining("does not exist");
        assertThatThrownBy(() -> table.copy(Map.of("scan.tag-name", "first")).newReadBuilder().newStreamScan())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("cannot scan from a tag in streaming mode");
    }

    @Test
    void tagsTableShowsEveryTag() throws Exception {
        snapshots(2);
        TableTags tags = TableTags.of(table);
        tags.create("kept", 1L, null);
        Snapshot latest = tags.create("retained", null, Duration.ofHours(1));
        assertThat(latest.id()).isEqualTo(2);
        List<String> rows = new ArrayList<>();
        var tagsTable = SystemTables.of(table, "tags").orElseThrow();
        assertThat(tagsTable.rowType().fieldNames()).containsExactly("tag_name", "snapshot_id", "schema_id",
                "commit_time", "record_count", "create_time", "time_retained");
        tagsTable.newRead().createReader().forEachRemaining(r -> rows.add(r.stringAt(0) + "," + r.longAt(1) + ","
                + r.longAt(4) + "," + r.isNullAt(5) + "," + (r.isNullAt(6) ? null : r.stringAt(6))));
        assertThat(rows).containsExactly("kept,1,2,true,null", "retained,2,4,false,PT1H");
    }

    @Test
    void tagsFromTimestampAndWatermarkPickTheFirstLateEnoughSnapshot() throws Exception {
        snapshots(3);
        TableTags tags = TableTags.of(table);
        long t2 = table.snapshotManager().snapshot(2).timeMillis();
        assertThat(tags.createFromTimestamp("ts", t2, null).id()).isEqualTo(2);
        assertThatThrownBy(() -> tags.createFromTimestamp("late", Long.MAX_VALUE / 2, null))
                .hasMessageContaining("no snapshot was committed at or after");
        assertThatThrownBy(() -> tags.createFromWatermark("wm", 0, null))
                .hasMessageContaining("no snapshot has a watermark of at least 0");
    }

    @Test
    void rollbackToASnapshotRemovesLaterSnapshotsAndTags() throws Exception {
        snapshots(4);
        TableTags tags = TableTags.of(table);
        tags.create("at2", 2L, null);
        tags.create("at3", 3L, null);
        TableRollback.Result result = TableRollback.of(table).toSnapshot(2);
        assertThat(result).isEqualTo(new TableRollback.Result(4, 2));
        SnapshotManager snapshots = table.snapshotManager();
        assertThat(snapshots.listSnapshotIds()).containsExactly(1L, 2L);
        assertThat(Files.readString(file("snapshot/LATEST"))).isEqualTo("2");
        assertThat(tags.list()).extracting(TableTags.TagInfo::name).containsExactly("at2");
        assertThat(TestTables.readAll(table)).isEqualTo(expectedUpTo(2));
        // the next commit is snapshot 3 on top of 2
        TestTables.write(table, TestTables.rows(100, 1, 1));
        assertThat(snapshots.latestSnapshotId()).isEqualTo(3);
        assertThat(TestTables.readAll(table)).hasSize(5);
        assertThatThrownBy(() -> TableRollback.of(table).toSnapshot(9)).hasMessageContaining("snapshot 9: it does not exist");
    }

    @Test
    void rollbackToATagWhoseSnapshotExpiredWritesTheSnapshotAgain() throws Exception {
        snapshots(3);
        TableTags.of(table).create("one", 1L, null);
        Files.delete(file("snapshot/snapshot-1"));
        Files.writeString(file("snapshot/EARLIEST"), "2");
        assertThat(TableRollback.of(table).toTag("one")).isEqualTo(new TableRollback.Result(3, 1));
        assertThat(table.snapshotManager().listSnapshotIds()).containsExactly(1L);
        assertThat(table.snapshotManager().earliestSnapshotId()).isEqualTo(1);
        assertThat(Files.readString(file("snapshot/EARLIEST"))).isEqualTo("1");
        assertThat(TestTables.readAll(table)).isEqualTo(expectedUpTo(1));
        assertThat(TableTags.of(table).get("one")).isPresent();
    }

    @Test
    void rollbackByTimestamp() throws Exception {
        snapshots(3);
        long t2 = table.snapshotManager().snapshot(2).timeMillis();
        assertThat(TableRollback.of(table).toTimestamp(t2).currentSnapshotId()).isEqualTo(2);
        assertThatThrownBy(() -> TableRollback.of(table).toTimestamp(0)).hasMessageContaining("no retained snapshot");
        assertThatThrownBy(() -> TableRollback.of(table).toWatermark(5)).hasMessageContaining("watermark of at most 5");
    }

    @Test
    void aCommitPreparedBeforeARollbackIsAConflictNotAHole() throws Exception {
        snapshots(3);
        // the writer read snapshot 3 as its base; a rollback to 1 removes it before the commit is published
        SnapshotManager racing = new SnapshotManager(LocalFileIO.INSTANCE, table.location(), (path, content) -> {
            TableRollback.of(table).toSnapshot(1);
            return SnapshotPublisher.createIfAbsent(LocalFileIO.INSTANCE).publish(path, content);
        });
        Snapshot base = table.snapshotManager().snapshot(3);
        Snapshot next = new Snapshot(base.version(), 4, base.schemaId(), base.baseManifestList(), null,
                base.deltaManifestList(), null, null, null, null, "w", 9, base.commitKind(), base.timeMillis(), null,
                base.totalRecordCount(), 0L, null, null, null, null, 0L);
        assertThatThrownBy(() -> racing.tryCommit(next)).isInstanceOf(BaseSnapshotRemovedException.class)
                .hasMessageContaining("was removed by a rollback");
        assertThat(table.snapshotManager().listSnapshotIds()).containsExactly(1L);
        // a commit whose base is already gone is refused the same way
        assertThatThrownBy(() -> table.snapshotManager().tryCommit(next)).isInstanceOf(BaseSnapshotRemovedException.class);
    }

    @Test
    void newFilesPreparedBeforeARollbackAreCommittedOnTheRolledBackTable() throws Exception {
        snapshots(3);
        List<CommitMessage> messages;
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : TestTables.rows(500, 2, 2)) {
                w.write(r);
            }
            messages = w.prepareCommit();
        }
        // the table is rolled back while the commit is in flight: the committer publishes on the live latest
        FileStoreTable racing = FileStoreTable.load(LocalFileIO.INSTANCE, table.location(), "default.test");
        TableRollback.of(table).toSnapshot(1);
        try (BatchTableCommit c = racing.newBatchCommit()) {
            c.commit(messages);
        }
        // the appended files land on snapshot 1 (snapshot 2 is the new one): no hole, no lost snapshot
        assertThat(table.snapshotManager().listSnapshotIds()).containsExactly(1L, 2L);
        assertThat(TestTables.readAll(table)).hasSize(4);
    }
}
