package dev.streamhouse.flink.source;

import dev.streamhouse.flink.source.testutils.ChainedToInput;
import dev.streamhouse.flink.source.testutils.FlinkRows;
import dev.streamhouse.flink.source.testutils.SourceTestTables;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static dev.streamhouse.flink.source.testutils.SourceTestTables.pkRow;
import static org.assertj.core.api.Assertions.assertThat;

/** Bounded reads through {@code env.fromSource} on a MiniCluster. */
class PaimonSourceITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @TempDir
    java.nio.file.Path tmp;

    private StreamExecutionEnvironment env;

    @BeforeEach
    void setUp() {
        env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
    }

    private List<RowData> collect(PaimonSource source) throws Exception {
        List<RowData> out = new ArrayList<>();
        try (CloseableIterator<RowData> it =
                     env.fromSource(source, WatermarkStrategy.noWatermarks(), "paimon").executeAndCollect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private List<String> read(PaimonSource source) throws Exception {
        return FlinkRows.show(collect(source), source.producedType());
    }

    @Test
    void readsEveryRowOfAnAppendTable() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 1000, 4);
        TestTables.write(table, TestTables.rows(1000, 500, 4));
        PaimonSource source = PaimonSourceBuilder.forTable(table).build();

        assertThat(source.plan().splits()).hasSize(4);
        assertThat(read(source)).hasSize(1500).isEqualTo(TestTables.readAll(table));
    }

    @Test
    void primaryKeyTableRowsAreMergedWithTheKindOfTheirLatestVersionAsInPaimon() throws Exception {
        FileStoreTable table = SourceTestTables.primaryKeyTable(tmp, "bucket", "2");
        List<InternalRow> first = new ArrayList<>();
        for (int id = 0; id < 100; id++) {
            first.add(pkRow(RowKind.INSERT, id, id, "v" + id));
        }
        SourceTestTables.writePk(table, 1, first);
        List<InternalRow> second = new ArrayList<>();
        for (int id = 0; id < 100; id += 2) {
            second.add(pkRow(RowKind.UPDATE_BEFORE, id, id, "v" + id));
            second.add(pkRow(RowKind.UPDATE_AFTER, id, id * 10L, "u" + id));
        }
        for (int id = 1; id < 100; id += 10) {
            second.add(pkRow(RowKind.DELETE, id, id, "v" + id));
        }
        SourceTestTables.writePk(table, 2, second);
        SourceTestTables.writePk(table, 3, List.of(pkRow(RowKind.INSERT, 200, 200, "late"),
                pkRow(RowKind.UPDATE_AFTER, 4, 44, "again")));

        List<String> expected = new ArrayList<>();
        for (int id = 0; id < 100; id++) {
            if (id % 10 == 1) {
                continue;
            }
            expected.add(id == 4 ? "+U(4, 44, again)" : id % 2 == 0 ? "+U(" + id + ", " + id * 10 + ", u" + id + ")"
                    : "+I(" + id + ", " + id + ", v" + id + ")");
        }
        expected.add("+I(200, 200, late)");
        expected.sort(null);

        // The buckets' files overlap, so they are merged on read: each key keeps its latest version's kind.
        List<RowData> rows = collect(PaimonSourceBuilder.forTable(table).build());
        assertThat(FlinkRows.show(rows, PaimonSourceBuilder.forTable(table).build().producedType())).isEqualTo(expected);
    }

    @Test
    void partitionFilterPrunesSplitsAndProjectionReordersColumns() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 400, 4);
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        PaimonSource source = PaimonSourceBuilder.forTable(table)
                .projection(new int[] {2, 0})
                .filter(pb.equal(2, BinaryString.fromString("d1")))
                .build();

        assertThat(PaimonSourceBuilder.forTable(table).build().plan().splits()).hasSize(4);
        assertThat(source.plan().splits()).hasSize(1);
        assertThat(source.producedType().getFieldNames()).containsExactly("dt", "id");
        List<String> expected = IntStream.range(0, 400).filter(id -> id % 4 == 1)
                .mapToObj(id -> "+I(d1, " + id + ")").sorted().toList();
        assertThat(read(source)).isEqualTo(expected);
    }

    @Test
    void valueFilterIsAppliedToEveryRowEvenOnColumnsNotProjected() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 400, 4);
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        PaimonSource source = PaimonSourceBuilder.forTable(table)
                .projection(new int[] {1})
                .filter(PredicateBuilder.and(pb.greaterOrEqual(0, 100), pb.lessThan(0, 110)))
                .build();
        List<String> expected = IntStream.range(100, 110).mapToObj(id -> "+I(name-" + id + ")").sorted().toList();
        assertThat(read(source)).isEqualTo(expected);
    }

    @Test
    void limitStopsTheReaderAfterThatManyRows() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 5000, 4);
        env.setParallelism(1);
        List<String> all = TestTables.readAll(table);

        List<String> limited = read(PaimonSourceBuilder.forTable(table).limit(7L).build());
        assertThat(limited).hasSize(7).doesNotHaveDuplicates();
        assertThat(all).containsAll(limited);
        assertThat(read(PaimonSourceBuilder.forTable(table).limit(0L).build())).isEmpty();
    }

    @Test
    void limitIsPerReader() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 5000, 4);
        env.setParallelism(3);
        List<String> limited = read(PaimonSourceBuilder.forTable(table).limit(5L).build());
        assertThat(limited.size()).isBetween(5, 15);
        assertThat(limited).doesNotHaveDuplicates();
    }

    @Test
    void emptyTableReadsNothing() throws Exception {
        FileStoreTable table = SourceTestTables.primaryKeyTable(tmp, "bucket", "2");
        PaimonSource source = PaimonSourceBuilder.forTable(table).build();
        assertThat(source.plan().splits()).isEmpty();
        assertThat(read(source)).isEmpty();
    }

    @Test
    void emptyProjectionCountsRows() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 300, 3);
        List<RowData> rows = collect(PaimonSourceBuilder.forTable(table).projection(new int[0]).build());
        assertThat(rows).hasSize(300).allMatch(r -> r.getArity() == 0);
    }

    @Test
    void timeTravelReadsThePinnedSnapshot() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 100, 2);
        long first = table.latestSnapshot().orElseThrow().id();
        TestTables.write(table, TestTables.rows(100, 100, 2));
        assertThat(read(PaimonSourceBuilder.forTable(table).build())).hasSize(200);
        assertThat(read(PaimonSourceBuilder.forTable(table).snapshotId(first).build())).hasSize(100);
    }

    /**
     * With object reuse on, a chained operator gets the emitted object itself, one view moved from row
     * to row (as Flink's own columnar file sources emit theirs): what it reads when it gets a row is
     * that row.
     */
    @Test
    void aChainedOperatorSeesEveryRowWithObjectReuse() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 3000, 3);
        env.getConfig().enableObjectReuse();
        PaimonSource source = PaimonSourceBuilder.forTable(table).build();
        List<String> shown = new ArrayList<>();
        org.apache.flink.table.types.logical.RowType type = source.producedType();
        try (CloseableIterator<String> it = env.fromSource(source, WatermarkStrategy.noWatermarks(), "paimon")
                .map(r -> FlinkRows.show(r, type)).returns(Types.STRING)
                .executeAndCollect()) {
            it.forEachRemaining(shown::add);
        }
        shown.sort(null);
        assertThat(shown).isEqualTo(TestTables.readAll(table));
    }

    /**
     * Without object reuse (Flink's default) a chained operator that holds on to its input rows gets
     * copies, so every row it kept is still that row at the end of input.
     */
    @Test
    void rowsKeptDownstreamStayValidWithoutObjectReuse() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 3000, 3);
        env.getConfig().disableObjectReuse();
        PaimonSource source = PaimonSourceBuilder.forTable(table).build();
        List<String> shown = new ArrayList<>();
        try (CloseableIterator<String> it = env.fromSource(source, WatermarkStrategy.noWatermarks(), "paimon")
                // chained: gets what the source emits (copied without object reuse)
                .transform("keep references", Types.STRING,
                        ChainedToInput.of(new KeepReferences(source.producedType())))
                .executeAndCollect()) {
            it.forEachRemaining(shown::add);
        }
        shown.sort(null);
        assertThat(shown).isEqualTo(TestTables.readAll(table));
    }

    /** Holds on to every input row and shows them all at the end of input. */
    private static final class KeepReferences extends AbstractStreamOperator<String>
            implements OneInputStreamOperator<RowData, String> {
        private final org.apache.flink.table.types.logical.RowType type;
        private transient List<RowData> kept;

        KeepReferences(org.apache.flink.table.types.logical.RowType type) {
            this.type = type;
        }

        @Override
        public void open() throws Exception {
            super.open();
            kept = new ArrayList<>();
        }

        @Override
        public void processElement(StreamRecord<RowData> element) {
            kept.add(element.getValue());
        }

        @Override
        public void finish() throws Exception {
            for (RowData r : kept) {
                output.collect(new StreamRecord<>(FlinkRows.show(r, type)));
            }
            super.finish();
        }
    }
}
