package dev.streamhouse.e2e.flink;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.flink.FlinkCatalogFactory;
import org.apache.paimon.options.Options;

import java.nio.file.Path;
import java.util.Map;

/**
 * A batch table environment with two catalogs on one warehouse: {@code ours} (found by its factory)
 * and {@code theirs}, Apache Paimon 1.3.1's Flink catalog (registered as an object; its factories are
 * hidden from Flink by {@link WithoutPaimonFactories}).
 */
final class TwoCatalogs {
    private TwoCatalogs() {}

    static TableEnvironment open(Path warehouse) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance().inBatchMode()
                .withClassLoader(new WithoutPaimonFactories(TwoCatalogs.class.getClassLoader())).build());
        tEnv.executeSql("CREATE CATALOG ours WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.toUri() + "')");
        tEnv.registerCatalog("theirs", FlinkCatalogFactory.createCatalog("theirs",
                CatalogContext.create(Options.fromMap(Map.of("warehouse", warehouse.toUri().toString()))),
                TwoCatalogs.class.getClassLoader()));
        return tEnv;
    }
}
