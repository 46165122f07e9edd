package dev.streamhouse.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.testutils.TestTables;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that ignores conditional writes becomes usable with a metastore's commit lock
 * ({@code lock.enabled}): racing committers all land, each in its own snapshot, and nothing is lost;
 * without the lock the same commits are refused. Each metastore's test extends this with its options.
 */
public abstract class S3CommitLockContract {
    private static final int COMMITTERS = 3;
    private static final int COMMITS_EACH = 4;
    private static final int ROWS_PER_COMMIT = 5;

    @RegisterExtension
    protected static final S3ProxyExtension S3 = S3ProxyExtension.ignoringConditionalWrites();

    @TempDir
    protected Path dir;

    /** The options of the metastore whose lock is tested ({@code metastore}, {@code uri}, ...). */
    protected abstract Map<String, String> metastoreOptions();

    private Catalog catalog(String warehouse, boolean lock) {
        Map<String, String> options = new HashMap<>(S3.catalogOptions(warehouse));
        options.putAll(metastoreOptions());
        if (lock) {
            options.put("lock.enabled", "true");
            options.put("lock-check-max-sleep", "100 ms");
        }
        return CatalogFactory.createCatalog(new Options(options));
    }

    @Test
    void racingCommittersUnderTheLockAllLandInTheirOwnSnapshots() throws Exception {
        Identifier id = Identifier.of("db", "t");
        try (Catalog catalog = catalog("locked", true)) {
            catalog.createDatabase("db", true);   // a metastore may outlive a test: each its own table
            catalog.createTable(id, TestTables.simpleSchema(), false);
        }
        List<InternalRow> expected = new ArrayList<>();
        List<Callable<Void>> committers = new ArrayList<>();
        for (int c = 0; c < COMMITTERS; c++) {
            int committer = c;
            for (int k = 0; k < COMMITS_EACH; k++) {
                expected.addAll(TestTables.rows(rowId(committer, k), ROWS_PER_COMMIT, 2));
            }
            committers.add(() -> {
                // each committer its own catalog and table, as separate jobs would have
                try (Catalog catalog = catalog("locked", true)) {
                    Table table = catalog.getTable(id);
                    for (int k = 0; k < COMMITS_EACH; k++) {
                        TestTables.write(table, TestTables.rows(rowId(committer, k), ROWS_PER_COMMIT, 2));
                    }
                }
                return null;
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(COMMITTERS);
        try {
            for (Future<Void> done : pool.invokeAll(committers)) {
                done.get();
            }
        } finally {
            pool.shutdownNow();
        }

        try (Catalog catalog = catalog("locked", true)) {
            Table table = catalog.getTable(id);
            assertThat(TestTables.readAll(table)).containsExactlyElementsOf(TestTables.show(expected));
            assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(COMMITTERS * COMMITS_EACH);
        }
    }

    @Test
    void withoutTheLockTheSameStoreIsRefused() {
        try (Catalog catalog = catalog("unlocked", false)) {
            catalog.createDatabase("db", true);
            assertThatThrownBy(() -> catalog.createTable(Identifier.of("db", "unlocked"), TestTables.simpleSchema(), false))
                    .hasStackTraceContaining("ignores conditional writes")
                    .hasStackTraceContaining("'lock.enabled' = 'true'");
        }
    }

    private static int rowId(int committer, int commit) {
        return (committer * COMMITS_EACH + commit) * ROWS_PER_COMMIT;
    }
}
