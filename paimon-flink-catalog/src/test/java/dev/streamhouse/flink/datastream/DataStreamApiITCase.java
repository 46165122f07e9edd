package dev.streamhouse.flink.datastream;

import dev.streamhouse.flink.source.PaimonSourceBuilder;
import dev.streamhouse.flink.sink.PaimonSinkBuilder;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** DataStream jobs write and read tables through the builders. */
class DataStreamApiITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension();

    @TempDir
    Path warehouse;

    private FileStoreTable createTable() {
        Catalog catalog = CatalogFactory.createCatalog(Options.of("warehouse", warehouse.toString()));
        catalog.createDatabase("db", true);
        catalog.createTable(Identifier.of("db", "t"), Schema.newBuilder()
                .column("id", dev.streamhouse.storage.types.DataTypes.INT())
                .column("name", dev.streamhouse.storage.types.DataTypes.STRING())
                .column("dt", dev.streamhouse.storage.types.DataTypes.STRING())
                .primaryKey("dt", "id").partitionKeys("dt").option("bucket", "2").build(), false);
        return (FileStoreTable) catalog.getTable(Identifier.of("db", "t"));
    }


    @Test
    void writeRowsAndReadThemBack() throws Exception {
        FileStoreTable table = createTable();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(2);
        // Changes of one key at neighbouring positions: the conversion must not reorder them.
        var rows = env.fromData(Row.of(1, "a", "x"), Row.of(2, "b", "x"), Row.of(3, "c", "y"),
                        Row.ofKind(RowKind.DELETE, 2, "b", "x"), Row.ofKind(RowKind.UPDATE_AFTER, 1, "A", "x"),
                        Row.of(5, "e", "z"), Row.ofKind(RowKind.DELETE, 5, "e", "z"))
                .setParallelism(1);
        PaimonSinkBuilder.forTable(table).forRow(rows, DataTypes.ROW(
                DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("name", DataTypes.STRING()),
                DataTypes.FIELD("dt", DataTypes.STRING())));
        env.execute("write");

        List<String> all = new ArrayList<>();
        try (CloseableIterator<RowData> it = PaimonSourceBuilder.forTable(table).build(env).executeAndCollect()) {
            it.forEachRemaining(r -> all.add(r.getInt(0) + "," + r.getString(1) + "," + r.getString(2)));
        }
        all.sort(null);
        assertThat(all).containsExactly("1,A,x", "3,c,y");

        List<String> projected = new ArrayList<>();
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        try (CloseableIterator<RowData> it = PaimonSourceBuilder.forTable(table).projection(List.of("name"))
                .filter(pb.equal(2, "y")).build(env).executeAndCollect()) {
            it.forEachRemaining(r -> projected.add(r.getString(0).toString()));
        }
        assertThat(projected).containsExactly("c");

        // Overwrite of one partition in batch mode.
        StreamExecutionEnvironment env2 = StreamExecutionEnvironment.getExecutionEnvironment();
        env2.setRuntimeMode(RuntimeExecutionMode.BATCH);
        PaimonSinkBuilder.forTable(table).overwrite(Map.of("dt", "x")).forRow(
                env2.fromData(Row.of(9, "z", "x")), DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()),
                        DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("dt", DataTypes.STRING())));
        env2.execute("overwrite");
        List<String> after = new ArrayList<>();
        try (CloseableIterator<RowData> it = PaimonSourceBuilder.forTable(table).option("scan.snapshot-id", "2")
                .build(env).executeAndCollect()) {
            it.forEachRemaining(r -> after.add(r.getInt(0) + "," + r.getString(1)));
        }
        after.sort(null);
        assertThat(after).containsExactly("3,c", "9,z");
    }
}
