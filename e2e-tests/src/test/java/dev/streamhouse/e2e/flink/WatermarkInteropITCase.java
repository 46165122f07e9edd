package dev.streamhouse.e2e.flink;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.paimon.flink.FlinkCatalogFactory;
import org.apache.paimon.options.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code WATERMARK FOR} clause is stored exactly as Apache Paimon 1.3.1's Flink catalog stores it:
 * the same options for the same DDL, and each catalog rebuilds the watermark of the other's table.
 * Both catalogs sit on one warehouse in one table environment; ours is found by its factory, Paimon's
 * is registered as an object (its factories are hidden from Flink).
 */
class WatermarkInteropITCase {
    private static final String DDL = " (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)";

    @TempDir
    Path warehouse;

    private TableEnvironment tEnv;

    @BeforeEach
    void open() {
        tEnv = TwoCatalogs.open(warehouse);
    }

    private List<WatermarkSpec> watermarks(String catalog, String table) {
        return ((TableEnvironmentImpl) tEnv).getCatalogManager()
                .getTableOrError(ObjectIdentifier.of(catalog, "default", table))
                .getResolvedSchema().getWatermarkSpecs();
    }

    /** The table's stored options with the given prefix, as the storage sees them (Paimon's API). */
    private Map<String, String> storedOptions(String table, String prefix) throws Exception {
        org.apache.paimon.catalog.Catalog paimon = FlinkCatalogFactory.createPaimonCatalog(
                Options.fromMap(Map.of("warehouse", warehouse.toUri().toString())));
        Map<String, String> out = new TreeMap<>();
        try (paimon) {
            paimon.getTable(org.apache.paimon.catalog.Identifier.create("default", table)).options()
                    .forEach((k, v) -> {
                        if (k.startsWith(prefix)) {
                            out.put(k, v);
                        }
                    });
        }
        return out;
    }

    @Test
    void bothCatalogsStoreTheSameWatermarkOptions() throws Exception {
        tEnv.executeSql("CREATE TABLE ours.`default`.o" + DDL).await();
        tEnv.executeSql("CREATE TABLE theirs.`default`.p" + DDL).await();

        Map<String, String> ours = storedOptions("o", "schema.");
        assertThat(ours).containsKeys("schema.watermark.0.rowtime", "schema.watermark.0.strategy.expr",
                "schema.watermark.0.strategy.data-type");
        assertThat(ours).isEqualTo(storedOptions("p", "schema."));
    }

    @Test
    void eachCatalogRebuildsTheOthersWatermark() throws Exception {
        tEnv.executeSql("CREATE TABLE ours.`default`.o" + DDL).await();
        tEnv.executeSql("CREATE TABLE theirs.`default`.p" + DDL).await();

        for (String[] catalogAndTable : new String[][] {{"ours", "p"}, {"theirs", "o"}}) {
            List<WatermarkSpec> specs = watermarks(catalogAndTable[0], catalogAndTable[1]);
            assertThat(specs).as("%s reading %s", catalogAndTable[0], catalogAndTable[1]).hasSize(1);
            assertThat(specs.get(0).getRowtimeAttribute()).isEqualTo("ts");
            assertThat(specs.get(0).getWatermarkExpression().asSerializableString())
                    .isEqualTo(watermarks(catalogAndTable[0].equals("ours") ? "theirs" : "ours",
                            catalogAndTable[1]).get(0).getWatermarkExpression().asSerializableString());
        }
        assertThat(tEnv.getCatalog("ours").orElseThrow().getTable(new ObjectPath("default", "p")).getOptions())
                .as("our catalog shows the watermark in the schema, not among the options")
                .doesNotContainKey("schema.watermark.0.rowtime");
    }
}
