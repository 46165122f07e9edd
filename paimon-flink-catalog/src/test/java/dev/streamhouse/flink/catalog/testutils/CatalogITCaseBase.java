package dev.streamhouse.flink.catalog.testutils;

import dev.streamhouse.flink.common.metrics.MetricsForTests;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileIOs;
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
 * Base of SQL integration tests against a paimon catalog: one MiniCluster per test class (reporting its
 * metrics to {@link MetricsForTests}), and per test
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
                    .setConfiguration(MetricsForTests.configure(new org.apache.flink.configuration.Configuration()))
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
        tEnv.executeSql(createCatalogStatement());
        tEnv.useCatalog(CATALOG);
    }

    /**
     * A streaming table environment on the same catalog (current), with parallelism 1 and a checkpoint
     * every 200 ms, for streaming INSERTs and SELECTs.
     */
    protected TableEnvironment newStreamingEnvironment() {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.getConfig().set("parallelism.default", "1");
        env.getConfig().set("execution.checkpointing.interval", "200 ms");
        env.executeSql(createCatalogStatement());
        env.useCatalog(CATALOG);
        return env;
    }

    /** {@code CREATE CATALOG} of the warehouse with {@link #catalogOptions()}, for further table environments. */
    protected String createCatalogStatement() {
        return createCatalogStatement(catalogOptions());
    }

    /** {@code CREATE CATALOG} of the warehouse with these options (and {@link #fileSystemOptions()}). */
    protected String createCatalogStatement(Map<String, String> catalogOptions) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("type", "paimon");
        options.put("warehouse", warehouseUri());
        options.putAll(catalogOptions);
        options.putAll(fileSystemOptions());
        return "CREATE CATALOG " + CATALOG + " WITH (" + options.entrySet().stream()
                .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'")
                .collect(Collectors.joining(", ")) + ")";
    }

    @AfterEach
    void closeStorage() {
        if (storage != null) {
            storage.close();
        }
    }

    /**
     * Options that reach the warehouse's file system (e.g. {@code s3.*}); part of {@code CREATE CATALOG}
     * and of every storage catalog the test opens. None for a local warehouse.
     */
    protected Map<String, String> fileSystemOptions() {
        return Collections.emptyMap();
    }

    /** The options of a table given by its path, for its {@code WITH} clause: the file system's. */
    protected String fileSystemOptionsSql() {
        return fileSystemOptions().entrySet().stream()
                .map(e -> ", '" + e.getKey() + "' = '" + e.getValue() + "'")
                .collect(Collectors.joining());
    }

    /** Extra options of {@code CREATE CATALOG}; none by default. */
    protected Map<String, String> catalogOptions() {
        return Collections.emptyMap();
    }

    /** The warehouse as a URI: {@code file://} here; subclasses may put it elsewhere (e.g. {@code s3://}). */
    protected String warehouseUri() {
        return warehouse.toUri().toString();
    }

    /** A location below the warehouse, e.g. for a table given by its path. */
    protected String warehouseUri(String relative) {
        String root = warehouseUri();
        return (root.endsWith("/") ? root : root + "/") + relative;
    }

    /** The content of a file below the warehouse, or null if there is none. */
    protected String readWarehouseFile(String relative) throws java.io.IOException {
        Map<String, String> options = new LinkedHashMap<>(fileSystemOptions());
        FileIO fileIO = FileIOs.forPath(new dev.streamhouse.storage.fs.Path(warehouseUri()), new Options(options));
        dev.streamhouse.storage.fs.Path file = new dev.streamhouse.storage.fs.Path(warehouseUri(relative));
        return fileIO.exists(file) ? fileIO.readUtf8(file) : null;
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
            Map<String, String> options = new LinkedHashMap<>(catalogOptions());
            options.putAll(fileSystemOptions());
            options.put("warehouse", warehouseUri());
            storage = CatalogFactory.createCatalog(new Options(options));
        }
        return storage;
    }
}
