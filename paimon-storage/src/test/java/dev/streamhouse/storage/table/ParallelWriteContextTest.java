package dev.streamhouse.storage.table;

import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.sink.WriteContext;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Parallel writers of one job: dynamic-bucket assigner routing and writes that ignore previous files. */
class ParallelWriteContextTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable create(String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .column("s", DataTypes.STRING())
                .primaryKey("id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
    }

    private static InternalRow row(int id, long v) {
        return GenericRow.ofKind(RowKind.INSERT, id, v, BinaryString.fromString("s" + id));
    }

    private static int keyHash(int id) {
        return new BinaryRowConverter(List.of(DataTypes.INT())).toBinaryRow(new Object[] {id}).formatHash();
    }

    /** Writes ids [0, n) through {@code tasks} parallel writers, each getting the keys routed to it. */
    private static List<CommitMessage> writeParallel(FileStoreTable table, int tasks, int n, long v) throws Exception {
        List<CommitMessage> messages = new ArrayList<>();
        int partitionHash = BinaryRow.EMPTY_ROW.formatHash();
        for (int task = 0; task < tasks; task++) {
            WriteContext ctx = WriteContext.single().withAssigner(new AssignerRouting(tasks, tasks, task));
            try (TableWrite w = table.newWrite(ctx)) {
                for (int id = 0; id < n; id++) {
                    if (AssignerRouting.channel(partitionHash, keyHash(id), tasks, tasks) == task) {
                        w.write(row(id, v));
                    }
                }
                messages.addAll(w.prepareCommit());
            }
        }
        return messages;
    }

    @Test
    void parallelAssignersOpenDisjointBucketsAndKeepKeysInPlace() throws Exception {
        FileStoreTable table = create("dynamic-bucket.target-row-num", "10");
        table.newStreamCommit("job").commit(1, writeParallel(table, 2, 60, 1));

        List<DataSplit> splits = table.newReadBuilder().newScan().plan().splits().stream()
                .map(s -> (DataSplit) s).toList();
        assertThat(splits.stream().mapToInt(DataSplit::bucket).distinct().count()).isGreaterThanOrEqualTo(6);
        assertThat(TestTables.readAll(table)).hasSize(60);

        // The same layout again: every key stays in its bucket, so updates replace, never duplicate.
        table.newStreamCommit("job").commit(2, writeParallel(table, 2, 60, 2));
        List<String> all = TestTables.readAll(table);
        assertThat(all).hasSize(60).allMatch(r -> r.contains(", 2, s"));
    }

    @Test
    void refusesAKeyInABucketAnotherLayoutOwns() throws Exception {
        FileStoreTable table = create("dynamic-bucket.target-row-num", "5");
        table.newStreamCommit("job").commit(1, writeParallel(table, 2, 40, 1));

        // One writer that owns every bucket may continue any layout ...
        try (TableWrite w = table.newWrite(WriteContext.single())) {
            for (int id = 0; id < 40; id++) {
                w.write(row(id, 3));
            }
            table.newStreamCommit("job").commit(2, w.prepareCommit());
        }
        assertThat(TestTables.readAll(table)).hasSize(40);

        // ... but of 4 writers, some receive keys that live in buckets they do not own.
        assertThatThrownBy(() -> writeParallel(table, 4, 40, 4))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not own")
                .hasMessageContaining("parallelism");
    }

    @Test
    void ignoringPreviousFilesStartsPartitionsEmpty() throws Exception {
        FileStoreTable table = create("bucket", "1");
        try (TableWrite w = table.newWrite()) {
            w.write(row(1, 1));
            w.write(row(2, 2));
            table.newStreamCommit("job").commit(1, w.prepareCommit());
        }
        try (TableWrite w = table.newWrite(WriteContext.single().ignoringPreviousFiles())) {
            w.write(row(3, 3));
            List<CommitMessage> messages = w.prepareCommit();
            // A continuing writer would number after the restored files (sequence 2); this one starts at 0.
            assertThat(messages).singleElement().satisfies(m ->
                    assertThat(m.newFiles()).singleElement().satisfies(f -> assertThat(f.minSequenceNumber()).isZero()));
        }
        try (TableWrite w = table.newWrite()) {
            w.write(row(3, 3));
            assertThat(w.prepareCommit().get(0).newFiles().get(0).minSequenceNumber()).isEqualTo(2);
        }
    }
}
