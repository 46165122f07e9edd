package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.testutils.SourceTestTables;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.streamhouse.flink.source.testutils.SourceTestTables.pkRow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaimonSplitReaderTest {
    @TempDir
    java.nio.file.Path tmp;

    /** What the fetches returned: rows (as kept, i.e. read after all fetches) and fetch boundaries. */
    private static final class Fetched {
        final List<InternalRow> rows = new ArrayList<>();
        final List<Integer> rowsPerFetch = new ArrayList<>();
        final Set<String> finished = new LinkedHashSet<>();

        List<Integer> ids() {
            return rows.stream().map(r -> r.intAt(0)).toList();
        }
    }

    private static Fetched fetchAll(PaimonSplitReader reader, int expectedFinished) throws IOException {
        Fetched f = new Fetched();
        for (int guard = 0; f.finished.size() < expectedFinished; guard++) {
            assertThat(guard).as("fetches").isLessThan(100);
            RecordsWithSplitIds<RowChunk> records = reader.fetch();
            int n = 0;
            while (records.nextSplit() != null) {
                RowChunk chunk;
                while ((chunk = records.nextRecordFromSplit()) != null) {
                    assertThat(chunk.size()).as("rows of a chunk").isBetween(1, PaimonSplitReader.ROWS_PER_CHUNK);
                    for (int i = 0; i < chunk.size(); i++) {
                        f.rows.add(chunk.row(i));
                    }
                    n += chunk.size();
                }
            }
            f.rowsPerFetch.add(n);
            f.finished.addAll(records.finishedSplits());
            records.recycle();
        }
        return f;
    }

    private static PaimonSplitReader reader(FileStoreTable table, RecordLimiter limiter, List<PaimonSplit> splits) {
        ReadBuilder rb = table.newReadBuilder();
        PaimonSplitReader reader = new PaimonSplitReader(rb.newRead().executeFilter(), limiter);
        reader.handleSplitsChanges(new SplitsAddition<>(splits));
        return reader;
    }

    private static List<PaimonSplit> splits(FileStoreTable table) {
        List<PaimonSplit> out = new ArrayList<>();
        for (DataSplit s : table.newReadBuilder().newScan().plan().splits()) {
            out.add(PaimonSplit.fresh("s" + out.size(), s));
        }
        return out;
    }

    @Test
    void readsSplitsInChunksOfRowsThatStayValid() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 2500, 1);
        List<PaimonSplit> splits = splits(table);
        assertThat(splits).hasSize(1);

        Fetched f = fetchAll(reader(table, RecordLimiter.unlimited(), splits), 1);
        assertThat(f.rowsPerFetch).containsExactly(1024, 1024, 452);
        assertThat(f.finished).containsExactly("s0");
        // Rows were kept across later fetches and are still intact: views of vectors never refilled.
        List<String> shown = f.rows.stream().map(Object::toString).sorted().toList();
        assertThat(shown).isEqualTo(TestTables.readAll(table));
        assertThat(f.ids()).doesNotHaveDuplicates().hasSize(2500);
    }

    @Test
    void restoredSplitSkipsTheRecordsAlreadyEmitted() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 2500, 1);
        List<PaimonSplit> splits = splits(table);
        List<Integer> all = fetchAll(reader(table, RecordLimiter.unlimited(), splits), 1).ids();

        PaimonSplit restored = splits.get(0).withRecordsToSkip(1500);
        List<Integer> rest = fetchAll(reader(table, RecordLimiter.unlimited(), List.of(restored)), 1).ids();
        assertThat(rest).isEqualTo(all.subList(1500, 2500));
    }

    @Test
    void restoringMoreRecordsThanTheSplitHasFails() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 10, 1);
        PaimonSplit tooFar = splits(table).get(0).withRecordsToSkip(11);
        PaimonSplitReader reader = reader(table, RecordLimiter.unlimited(), List.of(tooFar));
        assertThatThrownBy(reader::fetch)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("11 of its records were emitted, but it has only 10");
    }

    @Test
    void primaryKeyRowsAreMergedWithTheirStoredRowKinds() throws Exception {
        FileStoreTable table = SourceTestTables.primaryKeyTable(tmp, "bucket", "1");
        SourceTestTables.writePk(table, 1, List.of(pkRow(RowKind.INSERT, 1, 10, "a"), pkRow(RowKind.INSERT, 2, 20, "b"),
                pkRow(RowKind.INSERT, 3, 30, "c")));
        SourceTestTables.writePk(table, 2, List.of(pkRow(RowKind.UPDATE_BEFORE, 1, 10, "a"),
                pkRow(RowKind.UPDATE_AFTER, 1, 11, "a2"), pkRow(RowKind.DELETE, 2, 20, "b")));
        // Rows merged on read keep the kind of their latest version (+U after an update), as in Paimon 1.3.1.
        assertThat(TestTables.readAll(table)).contains("+U(1, 11, a2)");

        Fetched f = fetchAll(reader(table, RecordLimiter.unlimited(), splits(table)), 1);
        assertThat(f.rows.stream().map(Object::toString).sorted()).containsExactly("+I(3, 30, c)", "+U(1, 11, a2)");
    }

    @Test
    void deltaSplitsKeepTheRowKindsOfTheChangesInOrder() throws Exception {
        FileStoreTable table = SourceTestTables.primaryKeyTable(tmp, "bucket", "1", "changelog-producer", "input");
        SourceTestTables.writePk(table, 1, List.of(pkRow(RowKind.INSERT, 1, 10, "a"), pkRow(RowKind.INSERT, 2, 20, "b")));
        SourceTestTables.writePk(table, 2, List.of(pkRow(RowKind.UPDATE_BEFORE, 1, 10, "a"),
                pkRow(RowKind.UPDATE_AFTER, 1, 11, "a2"), pkRow(RowKind.DELETE, 2, 20, "b")));
        StreamTableScan scan = table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"))
                .newReadBuilder().newStreamScan();
        List<PaimonSplit> splits = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            for (DataSplit s : scan.plan().splits()) {
                assertThat(s.delta()).isTrue();
                splits.add(PaimonSplit.fresh("d" + splits.size(), s));
            }
        }
        assertThat(splits).hasSize(2);

        Fetched f = fetchAll(reader(table, RecordLimiter.unlimited(), splits), 2);
        assertThat(f.rows.stream().map(Object::toString)).containsExactly("+I(1, 10, a)", "+I(2, 20, b)",
                "-U(1, 10, a)", "+U(1, 11, a2)", "-D(2, 20, b)");
    }

    @Test
    void reachedLimitFinishesEveryAssignedSplitWithoutReading() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 5000, 2);
        List<PaimonSplit> splits = splits(table);
        assertThat(splits).hasSize(2);
        RecordLimiter limiter = RecordLimiter.of(5);
        PaimonSplitReader reader = reader(table, limiter, splits);

        RecordsWithSplitIds<RowChunk> first = reader.fetch();
        assertThat(first.nextSplit()).isEqualTo("s0");
        assertThat(first.finishedSplits()).isEmpty();
        for (int i = 0; i < 5; i++) {
            assertThat(limiter.tryAcquire()).isTrue();
        }
        assertThat(limiter.tryAcquire()).isFalse();

        RecordsWithSplitIds<RowChunk> next = reader.fetch();
        assertThat(next.nextSplit()).isNull();
        assertThat(next.finishedSplits()).containsExactlyInAnyOrder("s0", "s1");
    }
}
