package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.split.PaimonSplitState;
import dev.streamhouse.flink.source.testutils.SourceTestTables;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PaimonRecordEmitterTest {
    @TempDir
    java.nio.file.Path tmp;

    @Test
    void emitsEveryRowOfAChunkThroughOneReusedViewAndCountsIt() throws Exception {
        Fixture f = new Fixture(tmp, 10);
        new PaimonRecordEmitter(RecordLimiter.unlimited()).emitRecord(f.chunk, f.output, f.state);

        assertThat(f.output.rows).hasSize(10);
        assertThat(f.output.rows).allMatch(r -> r == f.output.rows.get(0));
        assertThat(f.output.firstFields).hasSize(10);
        for (int i = 0; i < 10; i++) {
            assertThat(f.output.firstFields.get(i)).isEqualTo(f.chunk.row(i).intAt(0));
        }
        assertThat(f.output.kinds).containsOnly(org.apache.flink.types.RowKind.INSERT);
        assertThat(f.state.emittedRecords()).isEqualTo(10);
    }

    @Test
    void stopsAtTheLimitInsideAChunkAndCountsOnlyWhatWentOut() throws Exception {
        Fixture f = new Fixture(tmp, 10);
        RecordLimiter limiter = RecordLimiter.of(4);
        PaimonRecordEmitter emitter = new PaimonRecordEmitter(limiter);
        emitter.emitRecord(f.chunk, f.output, f.state);
        emitter.emitRecord(f.chunk, f.output, f.state);

        assertThat(f.output.rows).hasSize(4);
        assertThat(f.state.emittedRecords()).isEqualTo(4);
        assertThat(limiter.reached()).isTrue();
    }

    /** A chunk of the first rows of an append table's one split, its state and an output that keeps rows. */
    private static final class Fixture {
        final RowChunk chunk;
        final PaimonSplitState state;
        final KeepingOutput output = new KeepingOutput();

        Fixture(java.nio.file.Path tmp, int rows) throws Exception {
            FileStoreTable table = SourceTestTables.appendTable(tmp, rows, 1);
            List<DataSplit> splits = table.newReadBuilder().newScan().plan().splits();
            assertThat(splits).hasSize(1);
            PaimonSplit split = PaimonSplit.fresh("s0", splits.get(0));
            state = new PaimonSplitState(split);
            PaimonSplitReader reader = new PaimonSplitReader(table.newReadBuilder().newRead(), RecordLimiter.unlimited());
            reader.handleSplitsChanges(new SplitsAddition<>(List.of(split)));
            var records = reader.fetch();
            assertThat(records.nextSplit()).isEqualTo("s0");
            chunk = records.nextRecordFromSplit();
            assertThat(chunk.size()).isEqualTo(rows);
        }
    }

    /** Keeps each emitted object, and its first field and kind as they were when it was emitted. */
    private static final class KeepingOutput implements SourceOutput<RowData> {
        final List<RowData> rows = new ArrayList<>();
        final List<Integer> firstFields = new ArrayList<>();
        final List<org.apache.flink.types.RowKind> kinds = new ArrayList<>();

        @Override
        public void collect(RowData record) {
            rows.add(record);
            firstFields.add(record.getInt(0));
            kinds.add(record.getRowKind());
        }

        @Override
        public void collect(RowData record, long timestamp) {
            collect(record);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}
    }
}
