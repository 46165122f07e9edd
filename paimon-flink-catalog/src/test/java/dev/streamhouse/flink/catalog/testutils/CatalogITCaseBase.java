package dev.streamhouse.flink.catalog.testutils;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.options.Options;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Base of SQL integration tests against a paimon catalog: one MiniCluster per test class, and per test
 * a fresh warehouse ({@link #warehouse}) with a batch {@link TableEnvironment} whose current catalog is
 * {@value #CATALOG} over it ({@code default} database). Subclasses add catalog options with
 * {@link #catalogOptions()}.
 *
 * <p>Helpers run statements ({@link #sql}), collect query results as {@code Row.toString()} strings
 * ({@link #rows}, {@link #sortedRows}) and open a storage catalog on the same warehouse for writing
 * test data ({@link #storage()}).
 */
public abstract class CatalogITCaseBase {
    /** The name the catalog is registered under. */
    protected static final String CATALOG = "paimon";

    @RegisterExtension
    protected static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    protected Path warehouse;

    protected TableEnvironment tEnv;

    private Catalog storage;

    @BeforeEach
    void createTableEnvironment() {
        tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        Map<String, String> options = new LinkedHashMap<>();
        options.put("type", "paimon");
        options.put("warehouse", warehouseUri());
        options.putAll(catalogOptions());
        tEnv.executeSql("CREATE CATALOG " + CATALOG + " WITH (" + options.entrySet().stream()
                .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'")
                .collect(Collectors.joining(", ")) + ")");
        tEnv.useCatalog(CATALOG);
    }

    @AfterEach
    void closeStorage() {
        if (storage != null) {
            storage.close();
        }
    }

    /** Extra options of {@code CREATE CATALOG}; none by default. */
    protected Map<String, String> catalogOptions() {
        return Collections.emptyMap();
    }

    /** The warehouse as a {@code file://} URI. */
    protected String warehouseUri() {
        return warehouse.toUri().toString();
    }

    /** Runs a statement (formatted with {@code args}) and waits for it to finish. */
    protected TableResult sql(String statement, Object... args) {
        TableResult result = tEnv.executeSql(args.length == 0 ? statement : String.format(statement, args));
        try {
            result.await();
        } catch (Exception e) {
            throw new IllegalStateException("Statement failed: " + statement, e);
        }
        return result;
    }

    /** The rows of a query, as {@code Row.toString()}, in the order the query returns them. */
    protected List<String> rows(String query, Object... args) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(args.length == 0 ? query : String.format(query, args))
                .collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        } catch (Exception e) {
            throw new IllegalStateException("Query failed: " + query, e);
        }
        return out;
    }

    /** The rows of a query as strings, sorted. */
    protected List<String> sortedRows(String query, Object... args) {
        List<String> out = rows(query, args);
        Collections.sort(out);
        return out;
    }

    /** A storage catalog on the same warehouse (closed after the test), for writing test data. */
    protected Catalog storage() {
        if (storage == null) {
            storage = CatalogFactory.createCatalog(Options.of("warehouse", warehouseUri()));
        }
        return storage;
    }
}
