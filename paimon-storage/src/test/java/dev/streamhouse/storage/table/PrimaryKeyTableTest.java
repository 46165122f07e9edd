package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrimaryKeyTableTest {
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

    private static InternalRow row(RowKind kind, int id, long v, String s) {
        return GenericRow.ofKind(kind, id, v, BinaryString.fromString(s));
    }

    private static void write(FileStoreTable table, long identifier, InternalRow... rows) throws Exception {
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            table.newStreamCommit("test").commit(identifier, w.prepareCommit());
        }
    }

    @Test
    void latestVersionWinsAndDeletesRemoveKeys() throws Exception {
        FileStoreTable table = create("bucket", "2");
        write(table, 1, row(RowKind.INSERT, 1, 10, "a"), row(RowKind.INSERT, 2, 20, "b"), row(RowKind.INSERT, 3, 30, "c"));
        write(table, 2, row(RowKind.UPDATE_BEFORE, 1, 10, "a"), row(RowKind.UPDATE_AFTER, 1, 11, "a2"),
                row(RowKind.DELETE, 2, 20, "b"));
        assertThat(TestTables.readAll(table)).containsExactly("+I(3, 30, c)", "+U(1, 11, a2)");

        // The write buffer merged -U/+U of key 1 into +U; the -D of key 2 stays in level 0, counted exactly.
        List<DataFileMeta> files = table.newReadBuilder().newScan().plan().splits().stream()
                .flatMap(s -> s.files().stream()).toList();
        assertThat(files.stream().mapToLong(DataFileMeta::deleteRowCountOrZero).sum()).isEqualTo(1);
        assertThat(files).allMatch(f -> f.level() == 0);
    }

    @Test
    void fullCompactionDropsDeletesAndEnablesRawReads() throws Exception {
        FileStoreTable table = create("bucket", "1");
        write(table, 1, row(RowKind.INSERT, 1, 1, "a"), row(RowKind.INSERT, 2, 2, "b"));
        write(table, 2, row(RowKind.DELETE, 1, 1, "a"), row(RowKind.INSERT, 3, 3, "c"));
        try (TableWrite w = table.newWrite()) {
            w.compact(BinaryRow.EMPTY_ROW, 0, true);
            table.newStreamCommit("test").commit(3, w.prepareCommit());
        }
        assertThat(table.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.COMPACT);
        List<DataSplit> splits = table.newReadBuilder().newScan().plan().splits();
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).rawConvertible()).isTrue();
        assertThat(splits.get(0).files()).allMatch(f -> f.level() == 5 && f.deleteRowCountOrZero() == 0);
        assertThat(TestTables.readAll(table)).containsExactly("+I(2, 2, b)", "+I(3, 3, c)");
    }

    @Test
    void sequenceFieldDecidesWhichVersionWins() throws Exception {
        FileStoreTable table = create("bucket", "1", "sequence.field", "v");
        write(table, 1, row(RowKind.INSERT, 1, 5, "newer"), row(RowKind.INSERT, 1, 3, "older-but-later"));
        write(table, 2, row(RowKind.INSERT, 1, 4, "also-older"));
        assertThat(TestTables.readAll(table)).containsExactly("+I(1, 5, newer)");
        write(table, 3, row(RowKind.INSERT, 1, 6, "largest"));
        assertThat(TestTables.readAll(table)).containsExactly("+I(1, 6, largest)");
    }

    @Test
    void keyFilterPrunesFilesAndFindsTheKey() throws Exception {
        FileStoreTable table = create("bucket", "1");
        for (int c = 0; c < 4; c++) {
            InternalRow[] rows = new InternalRow[50];
            for (int i = 0; i < 50; i++) {
                rows[i] = row(RowKind.INSERT, c * 50 + i, c, "v" + c);
            }
            write(table, c + 1, rows);
        }
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        var rb = table.newReadBuilder().withFilter(pb.equal(0, 120));
        List<DataSplit> splits = rb.newScan().plan().splits();
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).files()).hasSize(1);
        assertThat(TestTables.read(rb)).containsExactly("+I(120, 2, v2)");
    }

    @Test
    void valueFilterSkipsWholeBucketsOnlyWhenNoFileCanMatch() throws Exception {
        FileStoreTable table = create("bucket", "4");
        InternalRow[] rows = new InternalRow[40];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = row(RowKind.INSERT, i, i == 0 ? 1000 : i, "v");
        }
        write(table, 1, rows);
        // Key 7 moves from a value matching the filter to one that does not: an old version matches.
        write(table, 2, row(RowKind.INSERT, 7, -7, "moved"));
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        var rb = table.newReadBuilder().withFilter(pb.greaterOrEqual(1, 1000L));
        assertThat(table.newReadBuilder().newScan().plan().splits()).hasSize(4);
        assertThat(rb.newScan().plan().splits()).hasSize(1);
        assertThat(TestTables.read(rb)).containsExactly("+I(0, 1000, v)");
        var moved = table.newReadBuilder().withFilter(pb.equal(1, 7L));
        assertThat(moved.newScan().plan().splits()).isNotEmpty();
        assertThat(TestTables.read(moved)).isEmpty();
    }

    @Test
    void concurrentCompactionsOfOneBucketConflictWithATypedError() throws Exception {
        FileStoreTable table = create("bucket", "1");
        write(table, 1, row(RowKind.INSERT, 1, 1, "a"));
        write(table, 2, row(RowKind.INSERT, 2, 2, "b"));
        List<CommitMessage> first;
        List<CommitMessage> second;
        try (TableWrite a = table.newWrite(); TableWrite b = table.newWrite()) {
            a.compact(BinaryRow.EMPTY_ROW, 0, true);
            b.compact(BinaryRow.EMPTY_ROW, 0, true);
            first = a.prepareCommit();
            second = b.prepareCommit();
        }
        TableCommit commitA = table.newStreamCommit("compactor-a");
        TableCommit commitB = table.newStreamCommit("compactor-b");
        commitA.commit(1, first);
        long latest = table.latestSnapshot().orElseThrow().id();
        assertThatThrownBy(() -> commitB.commit(1, second))
                .isInstanceOf(CommitConflictException.class).hasMessageContaining("no longer live");
        assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(latest);
        assertThat(TestTables.readAll(table)).containsExactly("+I(1, 1, a)", "+I(2, 2, b)");
    }

    @Test
    void primaryKeyColumnsMustNotBeNull() throws Exception {
        FileStoreTable table = create("bucket", "1");
        try (TableWrite w = table.newWrite()) {
            assertThatThrownBy(() -> w.write(GenericRow.of(null, 1L, null))).hasMessageContaining("'id'");
        }
    }

    @Test
    void changingTheBucketCountOfAPartitionIsRefused() throws Exception {
        FileStoreTable table = create("bucket", "2");
        write(table, 1, row(RowKind.INSERT, 1, 1, "a"));
        FileStoreTable rescaled = table.copy(java.util.Map.of("bucket", "3"));
        try (TableWrite w = rescaled.newWrite()) {
            assertThatThrownBy(() -> w.write(row(RowKind.INSERT, 2, 2, "b")))
                    .hasMessageContaining("2 buckets").hasMessageContaining("CALL sys.rescale");
        }
    }

    @Test
    void dynamicBucketsOpenNewBucketsAndKeepKeysInPlace() throws Exception {
        FileStoreTable table = create("dynamic-bucket.target-row-num", "10");
        InternalRow[] rows = new InternalRow[35];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = row(RowKind.INSERT, i, i, "v");
        }
        write(table, 1, rows);
        assertThat(table.newReadBuilder().newScan().plan().splits()).hasSize(4);
        assertThat(table.latestSnapshot().orElseThrow().indexManifest()).isNotNull();
        // A restarted writer sends existing keys to their buckets: updates never duplicate keys.
        write(table, 2, row(RowKind.INSERT, 3, 300, "updated"), row(RowKind.INSERT, 34, 3400, "updated"));
        List<String> all = TestTables.readAll(table);
        assertThat(all).hasSize(35).contains("+I(3, 300, updated)", "+I(34, 3400, updated)");
    }
}
