package dev.streamhouse.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.FileIOs;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Tables in an {@code s3://} warehouse through the catalog and the table API. */
class S3WarehouseTest {
    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    private static Catalog catalog(String warehouse) {
        return CatalogFactory.createCatalog(new Options(S3.catalogOptions(warehouse)));
    }

    @Test
    void primaryKeyTableUpsertsCompactsAndTravelsInTime() throws Exception {
        try (Catalog catalog = catalog("pk")) {
            catalog.createDatabase("db", true);
            Identifier id = Identifier.of("db", "users");
            catalog.createTable(id, Schema.newBuilder()
                    .column("id", DataTypes.INT().notNull())
                    .column("name", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("num-sorted-run.compaction-trigger", "2")
                    .build(), false);
            Table table = catalog.getTable(id);
            write(table, row(1, "a"), row(2, "b"), row(3, "c"));
            write(table, row(2, "B"), row(4, "d"));
            write(table, row(1, "A"), row(3, "C"));

            Table reloaded = catalog("pk").getTable(id);
            assertThat(TestTables.readAll(reloaded)).containsExactly("+I(1, A)", "+I(2, B)", "+I(3, C)", "+I(4, d)");
            assertThat(reloaded.latestSnapshot().orElseThrow().id()).isGreaterThanOrEqualTo(3);
            Table first = reloaded.copy(java.util.Map.of("scan.snapshot-id", "1"));
            assertThat(TestTables.readAll(first)).containsExactly("+I(1, a)", "+I(2, b)", "+I(3, c)");
            assertThat(catalog.listTables("db")).containsExactly("users");
        }
    }

    @Test
    void eightRacingCommittersLoseNoCommitAndWriteEveryRowOnce() throws Exception {
        Identifier id = Identifier.of("db", "events");
        try (Catalog catalog = catalog("race")) {
            catalog.createDatabase("db", true);
            catalog.createTable(id, TestTables.simpleSchema("commit.min-retry-wait", "1 ms",
                    "commit.max-retry-wait", "50 ms", "commit.max-retries", "200"), false);
        }
        int committers = 8;
        int commitsEach = 3;
        ExecutorService pool = Executors.newFixedThreadPool(committers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        List<InternalRow> expected = new ArrayList<>();
        try {
            for (int c = 0; c < committers; c++) {
                int committer = c;
                for (int i = 0; i < commitsEach; i++) {
                    expected.addAll(TestTables.rows((committer * commitsEach + i) * 10, 10, 3));
                }
                futures.add(pool.submit(() -> {
                    // Each committer opens its own catalog, as separate jobs would.
                    Table table = catalog("race").getTable(id);
                    start.await();
                    for (int i = 0; i < commitsEach; i++) {
                        TestTables.write(table, TestTables.rows((committer * commitsEach + i) * 10, 10, 3));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        Table table = catalog("race").getTable(id);
        assertThat(TestTables.readAll(table)).isEqualTo(TestTables.show(expected));
        assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(committers * commitsEach);
        // Every snapshot id from 1 is there: none was overwritten by a racing committer.
        var fileIO = FileIOs.forPath(new Path(S3.uri("race")), new Options(S3.s3Options()));
        List<String> snapshots = new ArrayList<>();
        for (var s : fileIO.list(new Path(S3.uri("race/db.db/events/snapshot")))) {
            snapshots.add(s.path().name());
        }
        List<String> expectedSnapshots = new ArrayList<>();
        for (int i = 1; i <= committers * commitsEach; i++) {
            expectedSnapshots.add("snapshot-" + i);
        }
        assertThat(snapshots).containsAll(expectedSnapshots);
    }

    private static InternalRow row(int id, String name) {
        return GenericRow.of(id, BinaryString.fromString(name));
    }

    private static void write(Table table, InternalRow... rows) throws Exception {
        TestTables.write(table, List.of(rows));
    }
}
