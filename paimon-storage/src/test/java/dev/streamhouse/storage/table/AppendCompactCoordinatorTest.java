package dev.streamhouse.storage.table;

import dev.streamhouse.storage.append.AppendCompactPlanner;
import dev.streamhouse.storage.append.UnawarePartitionCompactions;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.serialization.AppendCompactTaskSerializer;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.table.sink.AppendCompactCoordinator;
import dev.streamhouse.storage.table.sink.AppendCompactTask;
import dev.streamhouse.storage.table.sink.AppendCompactWorker;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableCompactor;
import dev.streamhouse.storage.table.sink.TableWrite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The compaction coordinator and workers of bucket-unaware append tables: planned from committed
 * files only, per partition, each file in one task, outputs seen again through the snapshots, every
 * row kept once; a concurrent compaction of the same files fails cleanly.
 */
class AppendCompactCoordinatorTest {
    @TempDir
    java.nio.file.Path tmp;

    private long nextValue;

    private FileStoreTable create(String name, String... options) throws Exception {
        return AppendTables.create(LocalFileIO.INSTANCE, tmp.resolve(name), "-1", options);
    }

    /** One commit of the next rows of both partitions: a file per partition. */
    private void writeCommit(FileStoreTable table, TableWrite write, TableCommit commit, long identifier)
            throws Exception {
        for (int i = 0; i < 6; i++) {
            write.write(AppendTables.row(nextValue++));
        }
        commit.commit(identifier, write.prepareCommit());
    }

    private List<CommitMessage> runAll(FileStoreTable table, List<AppendCompactTask> tasks) throws Exception {
        AppendCompactWorker worker = AppendCompactWorker.of(table);
        List<CommitMessage> out = new ArrayList<>();
        for (AppendCompactTask task : tasks) {
            // Tasks travel between operators in their binary form.
            AppendCompactTask copy = AppendCompactTaskSerializer.INSTANCE.deserialize(
                    AppendCompactTaskSerializer.INSTANCE.serialize(task));
            assertThat(copy).isEqualTo(task);
            out.add(worker.compact(copy));
        }
        return out;
    }

    @Test
    void aStreamingWriteIsCompactedPartitionByPartitionFromItsCommittedFiles() throws Exception {
        FileStoreTable table = create("stream");
        assertThat(AppendCompactCoordinator.compactsStreamingWrites(table)).isTrue();
        AppendCompactCoordinator coordinator = AppendCompactCoordinator.of(table);
        assertThat(coordinator.run()).as("an empty table").isEmpty();
        long identifier = 0;
        int compactions = 0;
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            for (int round = 0; round < 12; round++) {
                writeCommit(table, write, commit, ++identifier);
                List<AppendCompactTask> tasks = coordinator.run();
                if (!tasks.isEmpty()) {
                    compactions++;
                    assertThat(tasks).as("each partition once, five files each (compaction.min.file-num)")
                            .hasSize(2).allMatch(t -> t.files().size() == 5);
                    commit.commit(++identifier, runAll(table, tasks));
                }
                assertThat(coordinator.run()).as("nothing to plan after what was just planned").isEmpty();
            }
        }
        assertThat(compactions).isGreaterThanOrEqualTo(2);
        assertThat(AppendTables.filesByBucket(table).values()).allMatch(files -> files < 5);
        assertThat(AppendTables.values(table)).isEqualTo(LongStream.range(0, nextValue).boxed().toList());
        assertThat(AppendTables.strayDataFiles(table, tmp.resolve("stream"))).isEmpty();
    }

    @Test
    void aNewCoordinatorStartsFromTheLatestSnapshotsFiles() throws Exception {
        FileStoreTable table = create("restart", "write-only", "true");
        assertThat(AppendCompactCoordinator.compactsStreamingWrites(table)).as("write-only").isFalse();
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            for (long identifier = 1; identifier <= 7; identifier++) {
                writeCommit(table, write, commit, identifier);
            }
        }
        List<AppendCompactTask> tasks = AppendCompactCoordinator.of(table).run();
        assertThat(tasks).hasSize(2).allMatch(t -> t.files().size() == 7);
        List<String> files = new ArrayList<>();
        tasks.forEach(t -> t.files().forEach(f -> files.add(f.fileName())));
        assertThat(files).doesNotHaveDuplicates();
    }

    @Test
    void aConcurrentCompactionOfTheSameFilesFailsOneCommitAndKeepsEveryRow() throws Exception {
        FileStoreTable table = create("race");
        AppendCompactCoordinator coordinator = AppendCompactCoordinator.of(table);
        List<AppendCompactTask> tasks = List.of();
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            for (long identifier = 1; tasks.isEmpty(); identifier++) {
                writeCommit(table, write, commit, identifier);
                tasks = coordinator.run();
            }
            List<CommitMessage> compacted = runAll(table, tasks);
            TableCompactor.forTable(table).compact();
            assertThatThrownBy(() -> commit.commit(100, compacted)).isInstanceOf(CommitConflictException.class);
            commit.abort(compacted);
        }
        assertThat(AppendTables.values(table)).isEqualTo(LongStream.range(0, nextValue).boxed().toList());
        assertThat(AppendTables.strayDataFiles(table, tmp.resolve("race"))).isEmpty();
    }

    @Test
    void fixedBucketAndPrimaryKeyTablesHaveNoCoordinator() throws Exception {
        FileStoreTable fixed = AppendTables.create(LocalFileIO.INSTANCE, tmp.resolve("fixed"), "2");
        assertThat(AppendCompactCoordinator.compactsStreamingWrites(fixed)).isFalse();
        assertThatThrownBy(() -> AppendCompactCoordinator.of(fixed)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bucket' = -1");
    }

    /** Paimon's per-partition rules: bins of twice the target size, then an age of five idle rounds. */
    @Test
    void aPartitionPacksBinsAndCompactsWhatIsLeftOnceItAged() {
        UnawarePartitionCompactions partition = new UnawarePartitionCompactions(new AppendCompactPlanner(100, 5, 0, false));
        partition.addFiles(files(65, 65, 65, 10));
        List<List<DataFileMeta>> first = partition.plan();
        assertThat(first).as("10 + 65 + 65 + 65 reach twice the target").hasSize(1);
        assertThat(first.get(0)).hasSize(4);

        partition.addFiles(files(10, 20));
        for (int round = 1; round <= 5; round++) {
            assertThat(partition.plan()).as("round %s", round).isEmpty();
        }
        assertThat(partition.plan()).as("the sixth idle round").hasSize(1);
        assertThat(partition.readyToRemove()).isTrue();

        partition.addFiles(files(10));
        for (int round = 1; round <= 6; round++) {
            assertThat(partition.plan()).as("a single file is never rewritten alone").isEmpty();
        }
        assertThat(partition.waiting()).hasSize(1);
    }

    private int fileNumber;

    private List<DataFileMeta> files(long... sizes) {
        List<DataFileMeta> out = new ArrayList<>();
        for (long size : sizes) {
            out.add(DataFileMeta.forAppend("f" + fileNumber++, size, 1, SimpleStats.EMPTY, 0, 0, 0, 0L,
                    FileSource.APPEND, null));
        }
        return out;
    }
}
