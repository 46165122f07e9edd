package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.flink.catalog.testutils.RecordingStorageEvolution;
import dev.streamhouse.flink.catalog.testutils.RecordingStorageEvolution.Call;
import dev.streamhouse.flink.catalog.testutils.TestData;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.table.Table;

import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Partitions listed from the manifests, their statistics, and DROP PARTITION. */
class PartitionsITCase extends CatalogITCaseBase {
    private static final ObjectPath P = new ObjectPath("default", "p");

    @BeforeEach
    void writePartitions() throws Exception {
        sql("CREATE TABLE p (id INT, v STRING, dt STRING, h INT) PARTITIONED BY (dt, h)");
        Table p = storage().getTable(Identifier.of("default", "p"));
        TestData.commit(p, row(1, "a", "2024-01-01", 1), row(2, "b", "2024-01-01", 2), row(3, "c", "2024-01-02", 1));
        TestData.commit(p, row(4, "d", "2024-01-01", 1));
    }

    private static GenericRow row(int id, String v, String dt, int h) {
        return GenericRow.of(id, BinaryString.fromString(v), BinaryString.fromString(dt), h);
    }

    private static CatalogPartitionSpec spec(String dt, String h) {
        return new CatalogPartitionSpec(h == null ? Map.of("dt", dt) : Map.of("dt", dt, "h", h));
    }

    private Catalog catalog() {
        return tEnv.getCatalog(CATALOG).orElseThrow();
    }

    @Test
    void showPartitionsListsThePartitionsWithData() {
        assertThat(sortedRows("SHOW PARTITIONS p")).containsExactly(
                "+I[dt=2024-01-01/h=1]", "+I[dt=2024-01-01/h=2]", "+I[dt=2024-01-02/h=1]");
        assertThat(sortedRows("SHOW PARTITIONS p PARTITION (dt = '2024-01-01')"))
                .containsExactly("+I[dt=2024-01-01/h=1]", "+I[dt=2024-01-01/h=2]");
    }

    @Test
    void partitionStatisticsComeFromTheLiveFiles() throws Exception {
        CatalogPartition partition = catalog().getPartition(P, spec("2024-01-01", "1"));
        Map<String, String> stats = partition.getProperties();
        assertThat(stats).containsEntry("numRows", "2").containsEntry("numFiles", "2");
        assertThat(Long.parseLong(stats.get("totalSize")))
                .isEqualTo(bytesUnder(warehouse.resolve("default.db/p/dt=2024-01-01/h=1")));
        assertThat(Long.parseLong(stats.get("lastUpdateTime"))).isPositive();
        assertThat(catalog().getPartition(P, spec("2024-01-02", "1")).getProperties())
                .containsEntry("numRows", "1").containsEntry("numFiles", "1");
    }

    private static long bytesUnder(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("data-")).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sum();
        }
    }

    @Test
    void existenceNeedsTheFullSpec() throws Exception {
        assertThat(catalog().partitionExists(P, spec("2024-01-01", "2"))).isTrue();
        assertThat(catalog().partitionExists(P, spec("2024-01-02", "2"))).isFalse();
        assertThat(catalog().partitionExists(P, spec("2024-01-01", null))).isFalse();
        assertThatThrownBy(() -> catalog().getPartition(P, spec("1999-01-01", "1")))
                .isInstanceOf(PartitionNotExistException.class);
    }

    @Test
    void listByFilterEvaluatesConvertibleFiltersOnPartitionValues() throws Exception {
        Expression hIs1 = CallExpression.permanent(BuiltInFunctionDefinitions.EQUALS,
                List.of(new FieldReferenceExpression("h", org.apache.flink.table.api.DataTypes.INT(), 0, 3),
                        new ValueLiteralExpression(1)),
                org.apache.flink.table.api.DataTypes.BOOLEAN());
        assertThat(catalog().listPartitionsByFilter(P, List.of(hIs1)))
                .containsExactlyInAnyOrder(spec("2024-01-01", "1"), spec("2024-01-02", "1"));

        Expression onData = CallExpression.permanent(BuiltInFunctionDefinitions.EQUALS,
                List.of(new FieldReferenceExpression("v", org.apache.flink.table.api.DataTypes.STRING(), 0, 1),
                        new ValueLiteralExpression("a")),
                org.apache.flink.table.api.DataTypes.BOOLEAN());
        assertThatThrownBy(() -> catalog().listPartitionsByFilter(P, List.of(onData)))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Cannot evaluate filter");
    }

    @Test
    void unpartitionedTablesHaveNoPartitions() {
        sql("CREATE TABLE flat (x INT)");
        assertThatThrownBy(() -> rows("SHOW PARTITIONS flat")).hasStackTraceContaining("is not partitioned");
    }

    @Test
    void addingAPartitionIsRefused() {
        assertThatThrownBy(() -> sql("ALTER TABLE p ADD PARTITION (dt = '2030-01-01', h = 1)"))
                .hasStackTraceContaining("partitions of a filesystem catalog exist by having data");
    }

    @Test
    void dropPartitionHandsTheMatchingFullSpecsToTheStorage() {
        RecordingStorageEvolution evolution = new RecordingStorageEvolution();
        tEnv.registerCatalog("rec", new FlinkCatalog("rec",
                CatalogFactory.createCatalog(Options.of("warehouse", warehouseUri())), "default", Map.of(), evolution));
        tEnv.useCatalog("rec");

        sql("ALTER TABLE p DROP PARTITION (dt = '2024-01-02', h = 1)");
        assertThat(evolution.calls).containsExactly(new Call("dropPartitions", Identifier.of("default", "p"),
                List.of(Map.of("dt", "2024-01-02", "h", "1"))));

        evolution.calls.clear();
        sql("ALTER TABLE p DROP IF EXISTS PARTITION (dt = '1999-01-01', h = 1)");
        assertThat(evolution.calls).isEmpty();
        assertThatThrownBy(() -> sql("ALTER TABLE p DROP PARTITION (dt = '1999-01-01', h = 1)"))
                .hasStackTraceContaining("1999-01-01");
        assertThat(evolution.calls).isEmpty();
    }

    @Test
    void dropPartitionWithAPartialSpecDropsEveryMatchingPartition() throws Exception {
        RecordingStorageEvolution evolution = new RecordingStorageEvolution();
        FlinkCatalog recording = new FlinkCatalog("rec",
                CatalogFactory.createCatalog(Options.of("warehouse", warehouseUri())), "default", Map.of(), evolution);
        recording.dropPartition(P, spec("2024-01-01", null), false);
        @SuppressWarnings("unchecked")
        List<Map<String, String>> dropped = (List<Map<String, String>>) evolution.calls.get(0).argument();
        assertThat(dropped).containsExactlyInAnyOrder(Map.of("dt", "2024-01-01", "h", "1"),
                Map.of("dt", "2024-01-01", "h", "2"));
        assertThatThrownBy(() -> recording.dropPartition(P, new CatalogPartitionSpec(Map.of("v", "a")), false))
                .hasMessageContaining("'v' is not a partition key; partition keys are [dt, h]");
    }

    @Test
    void dropPartitionRemovesItsData() {
        assertThat(rows("SHOW PARTITIONS p")).contains("+I[dt=2024-01-02/h=1]");
        sql("ALTER TABLE p DROP PARTITION (dt = '2024-01-02', h = 1)");
        assertThat(rows("SHOW PARTITIONS p")).doesNotContain("+I[dt=2024-01-02/h=1]");
        assertThat(rows("SELECT * FROM p WHERE dt = '2024-01-02' AND h = 1")).isEmpty();
    }

    @Test
    void datePartitionValuesFollowPartitionLegacyName() throws Exception {
        sql("CREATE TABLE legacy (x INT, `day` DATE) PARTITIONED BY (`day`)");
        sql("CREATE TABLE readable (x INT, `day` DATE) PARTITIONED BY (`day`) WITH ('partition.legacy-name' = 'false')");
        int day = (int) LocalDate.of(2024, 1, 1).toEpochDay();
        TestData.commit(storage().getTable(Identifier.of("default", "legacy")), GenericRow.of(1, day));
        TestData.commit(storage().getTable(Identifier.of("default", "readable")), GenericRow.of(1, day));
        assertThat(rows("SHOW PARTITIONS legacy")).containsExactly("+I[day=19723]");
        assertThat(rows("SHOW PARTITIONS readable")).containsExactly("+I[day=2024-01-01]");
    }
}
