package dev.streamhouse.flink.cdc.testing;

import dev.streamhouse.flink.cdc.action.CdcActionsTesting;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.core.execution.JobClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The warehouse a sync test writes into, read through the storage API, and the sync jobs the test
 * submitted ({@link #cancelJobs()} after each test).
 */
public final class SyncedWarehouse {
    private static final Duration WAIT = Duration.ofMinutes(2);

    private final Path warehouse;
    private final List<JobClient> jobs = new ArrayList<>();

    public SyncedWarehouse(Path warehouse) {
        this.warehouse = warehouse;
    }

    public String uri() {
        return warehouse.toUri().toString();
    }

    /** Submits a sync action's job to the test's MiniCluster and remembers it. */
    public JobClient start(String action, List<String> args) throws Exception {
        JobClient job = CdcActionsTesting.submit(action, args.toArray(new String[0]));
        jobs.add(job);
        return job;
    }

    /** Cancels the submitted jobs that still run. */
    public void cancelJobs() throws Exception {
        for (JobClient job : jobs) {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get(1, TimeUnit.MINUTES);
            }
        }
        jobs.clear();
    }

    public Catalog catalog() {
        return CatalogFactory.createCatalog(new Options(Map.of("warehouse", uri())));
    }

    public Table table(String name) {
        try (Catalog catalog = catalog()) {
            return catalog.getTable(Identifier.fromString(name));
        }
    }

    /** Waits until the table exists and returns it. */
    public Table awaitTable(String name) {
        await().atMost(WAIT).until(() -> {
            try (Catalog catalog = catalog()) {
                return catalog.tableExists(Identifier.fromString(name));
            }
        });
        return table(name);
    }

    /**
     * The table's rows, sorted, as values: a batch read's rows are the keys' latest versions (+U after
     * an update), shown as +I. "(no table ...)" while it does not exist.
     */
    public List<String> rows(String table) {
        try (Catalog catalog = catalog()) {
            Identifier id = Identifier.fromString(table);
            if (!catalog.tableExists(id)) {
                return List.of("(no table " + table + ")");
            }
            List<String> out = new ArrayList<>();
            for (String row : TestTables.readAll(catalog.getTable(id))) {
                out.add(row.replaceFirst("^[-+][IUD]", "+I"));
            }
            out.sort(null);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the table's {@link #rows} are {@code expected} (in any order). */
    public void awaitRows(String table, String... expected) {
        List<String> sorted = new ArrayList<>(List.of(expected));
        sorted.sort(null);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(rows(table)).as(table).isEqualTo(sorted));
    }
}
