package dev.streamhouse.flink.source;

import dev.streamhouse.flink.source.testutils.AllTypes;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every type, NULLs and nested values written with the storage API come out of a Flink job as the
 * values Flink's own conversion expects: through Parquet, the merge read of a primary-key table, our
 * RowData views and Flink's RowData serializer.
 */
class AllTypesITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable create(String name, Schema schema) throws Exception {
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve(name).toString()), schema);
    }

    @SuppressWarnings("unchecked")
    private static List<Row> readExternal(PaimonSource source) throws Exception {
        DataStructureConverter<Object, Object> converter = DataStructureConverters.getConverter(
                TypeConversions.fromLogicalToDataType(source.producedType()));
        converter.open(AllTypesITCase.class.getClassLoader());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<RowData> it =
                     env.fromSource(source, WatermarkStrategy.noWatermarks(), "paimon").executeAndCollect()) {
            it.forEachRemaining(r -> out.add((Row) converter.toExternal(r)));
        }
        out.sort(Comparator.comparingInt(r -> (Integer) r.getField(0)));
        return out;
    }

    private static List<Row> expected() {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < AllTypes.ROWS; i++) {
            out.add(AllTypes.externalRow(i));
        }
        return out;
    }

    @Test
    void appendTableRoundTripsEveryType() throws Exception {
        FileStoreTable table = create("append", AllTypes.schema());
        TestTables.write(table, AllTypes.internalRows());
        assertThat(readExternal(PaimonSourceBuilder.forTable(table).build())).isEqualTo(expected());
    }

    @Test
    void primaryKeyTableRoundTripsEveryTypeThroughTheMergeRead() throws Exception {
        Schema.Builder b = Schema.newBuilder();
        Schema all = AllTypes.schema();
        all.fields().forEach(f -> b.column(f.name(), f.type()));
        FileStoreTable table = create("pk", b.primaryKey("id").option("bucket", "2").build());
        // Two commits, so that buckets hold several files and are merged on read.
        List<InternalRow> rows = AllTypes.internalRows();
        TestTables.write(table, rows.subList(0, 2));
        TestTables.write(table, rows.subList(1, 3));
        assertThat(table.newReadBuilder().newScan().plan().splits())
                .anyMatch(s -> s.files().size() > 1 && !s.rawConvertible());
        assertThat(readExternal(PaimonSourceBuilder.forTable(table).build())).isEqualTo(expected());
    }

    @Test
    void projectedNestedColumnsRoundTrip() throws Exception {
        FileStoreTable table = create("projected", AllTypes.schema());
        TestTables.write(table, AllTypes.internalRows());
        int[] projection = {0, 25, 21, 24, 20};
        List<Row> expected = new ArrayList<>();
        for (int i = 0; i < AllTypes.ROWS; i++) {
            expected.add(Row.project(AllTypes.externalRow(i), projection));
        }
        PaimonSource source = PaimonSourceBuilder.forTable(table).projection(projection).build();
        assertThat(source.producedType().getFieldNames())
                .containsExactly("id", "f_row", "f_array", "f_multiset", "f_ltz9");
        assertThat(readExternal(source)).isEqualTo(expected);
    }
}
