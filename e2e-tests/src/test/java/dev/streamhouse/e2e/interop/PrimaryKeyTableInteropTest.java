package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.Filter;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.TableSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Primary-key tables (partitioned, bucket = 4) written, compacted and continued by either side read
 * the same on both, with every key in the bucket Paimon expects.
 */
class PrimaryKeyTableInteropTest extends InteropTestBase {
    private static final String DB = "pk";
    private static final TableSpec SPEC = TableSpec.of(
                    "dt", "STRING", "id", "INT", "name", "STRING", "amount", "BIGINT", "ts", "TIMESTAMP(3)")
            .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "4");

    /** The expected table: key "dt/id" → row. */
    private final Map<String, CanonicalRow> model = new TreeMap<>();
    private final Random random = new Random(7);
    private int version;

    PrimaryKeyTableInteropTest() {
        super(DB);
    }

    /** A batch of random upserts and deletes over 150 keys in 3 partitions; updates the model. */
    private List<CanonicalRow> batch(int size) {
        List<CanonicalRow> rows = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String dt = "2026-11-" + (27 + random.nextInt(3));
            int id = random.nextInt(50);
            String key = dt + "/" + id;
            if (random.nextInt(5) == 0) {
                CanonicalRow existing = model.remove(key);
                rows.add(existing != null
                        ? existing.withKind(CanonicalRow.Kind.DELETE)
                        : CanonicalRow.ofKind(CanonicalRow.Kind.DELETE, dt, id, null, null, null));
            } else {
                version++;
                CanonicalRow row = CanonicalRow.ofKind(random.nextBoolean() ? CanonicalRow.Kind.INSERT : CanonicalRow.Kind.UPDATE_AFTER,
                        dt, id, random.nextInt(4) == 0 ? null : "name-" + version, (long) version,
                        LocalDateTime.of(2026, 1, 1, 0, 0).plusSeconds(version).plusNanos(1_000_000L * (version % 1000)));
                model.put(key, row);
                rows.add(row);
            }
        }
        return rows;
    }

    private List<CanonicalRow> expected() {
        return new ArrayList<>(model.values());
    }

    private void assertKeysFoundThroughBucketPruning(String table) {
        for (CanonicalRow row : expected().subList(0, Math.min(30, model.size()))) {
            Filter f = Filter.and(Filter.eq("dt", row.get(0)), Filter.eq("id", row.get(1)));
            Canon.assertSameRowsIgnoringKind("Paimon reading key " + row.get(0) + "/" + row.get(1) + " of " + table,
                    List.of(row), paimon.scan(DB, table, PaimonOracle.Query.all().filter(f)).rows());
        }
    }

    private void assertOurKeyFilter(String table) throws Exception {
        for (CanonicalRow row : expected().subList(0, Math.min(30, model.size()))) {
            Filter f = Filter.and(Filter.eq("dt", row.get(0)), Filter.eq("id", row.get(1)));
            Canon.assertSameRowsIgnoringKind("our reading of key " + row.get(0) + "/" + row.get(1) + " of " + table,
                    List.of(row), ours.scan(DB, table, null, f).rows());
        }
    }

    @Test
    void paimonReadsThePrimaryKeyTableWeWroteAndCompacted() throws Exception {
        ours.createTable(DB, "ours", SPEC);
        for (int i = 0; i < 5; i++) {
            ours.write(DB, "ours", batch(120));
        }
        ours.compactAll(DB, "ours", true);
        ours.write(DB, "ours", batch(80));
        ours.write(DB, "ours", batch(80));

        Canon.assertSameRowsIgnoringKind("table contents", expected(), paimon.readAll(DB, "ours"));
        Canon.assertSameRowsIgnoringKind("table contents", expected(), ours.readAll(DB, "ours"));
        assertKeysFoundThroughBucketPruning("ours");
        assertThat(levels(warehouse.resolve(DB + ".db/ours"))).as("files sit at several levels").hasSizeGreaterThan(1);
    }

    @Test
    void weReadThePrimaryKeyTablePaimonWroteAndCompacted() throws Exception {
        paimon.createTable(DB, "theirs", SPEC);
        for (int i = 0; i < 5; i++) {
            paimon.write(DB, "theirs", batch(120));
        }
        paimon.compactAll(DB, "theirs", true);
        paimon.write(DB, "theirs", batch(80));
        paimon.write(DB, "theirs", batch(80));

        Canon.assertSameRowsIgnoringKind("table contents", expected(), ours.readAll(DB, "theirs"));
        assertOurKeyFilter("theirs");
    }

    @Test
    void eachSideContinuesWritingAndCompactingTheOthersTable() throws Exception {
        ours.createTable(DB, "t", SPEC);
        ours.write(DB, "t", batch(150));
        ours.write(DB, "t", batch(150));
        paimon.write(DB, "t", batch(100));
        paimon.compactAll(DB, "t", true);
        ours.write(DB, "t", batch(100));
        ours.compactAll(DB, "t", false);
        paimon.write(DB, "t", batch(100));
        ours.compactAll(DB, "t", true);
        paimon.write(DB, "t", batch(60));

        Canon.assertSameRowsIgnoringKind("table contents", expected(), ours.readAll(DB, "t"));
        Canon.assertSameRowsIgnoringKind("table contents", expected(), paimon.readAll(DB, "t"));
        assertKeysFoundThroughBucketPruning("t");
        assertOurKeyFilter("t");
    }

    @Test
    void dynamicBucketTablesContinueOnBothSidesWithoutDuplicatingKeys() throws Exception {
        TableSpec spec = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING", "amount", "BIGINT", "ts", "TIMESTAMP(3)")
                .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("dynamic-bucket.target-row-num", "12");
        ours.createTable(DB, "dyn", spec);
        ours.write(DB, "dyn", batch(120));
        ours.write(DB, "dyn", batch(120));
        Canon.assertSameRowsIgnoringKind("Paimon reading our dynamic-bucket table", expected(), paimon.readAll(DB, "dyn"));
        // Paimon continues from our hash index: an existing key that went to another bucket would show twice.
        paimon.write(DB, "dyn", batch(120));
        ours.write(DB, "dyn", batch(120));
        paimon.compactAll(DB, "dyn", true);
        ours.write(DB, "dyn", batch(60));
        Canon.assertSameRowsIgnoringKind("our reading", expected(), ours.readAll(DB, "dyn"));
        Canon.assertSameRowsIgnoringKind("Paimon's reading", expected(), paimon.readAll(DB, "dyn"));
        long buckets = ours.table(DB, "dyn").newReadBuilder().newScan().plan().splits().stream()
                .mapToInt(s -> s.bucket()).distinct().count();
        assertThat(buckets).as("new buckets opened at the target row number").isGreaterThan(1);
    }

    /**
     * A dynamic-bucket table we write with bucket assigners and writers of changing parallelism (as
     * Flink jobs at 1, 2 and 3 would): Paimon reads it exactly and continues it from our hash index,
     * and we continue Paimon's writes, with no key in two buckets.
     */
    @Test
    void dynamicBucketTableWrittenAtChangingParallelismContinuesOnBothSides() throws Exception {
        TableSpec spec = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING", "amount", "BIGINT", "ts", "TIMESTAMP(3)")
                .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("dynamic-bucket.target-row-num", "8");
        ours.createTable(DB, "dynp", spec);
        ours.writeRouted(DB, "dynp", 1, 1, 1, batch(120));
        ours.writeRouted(DB, "dynp", 2, 2, 2, batch(120));
        Canon.assertSameRowsIgnoringKind("Paimon reading our table", expected(), paimon.readAll(DB, "dynp"));
        ours.writeRouted(DB, "dynp", 3, 2, 3, batch(120));
        Canon.assertSameRowsIgnoringKind("Paimon reading our table", expected(), paimon.readAll(DB, "dynp"));
        // Paimon continues from our hash index: an existing key that went to another bucket would show twice.
        paimon.write(DB, "dynp", batch(120));
        ours.writeRouted(DB, "dynp", 2, 2, 3, batch(120));
        ours.write(DB, "dynp", batch(60));
        Canon.assertSameRowsIgnoringKind("our reading", expected(), ours.readAll(DB, "dynp"));
        Canon.assertSameRowsIgnoringKind("Paimon's reading", expected(), paimon.readAll(DB, "dynp"));
        long buckets = ours.table(DB, "dynp").newReadBuilder().newScan().plan().splits().stream()
                .mapToInt(s -> s.bucket()).distinct().count();
        assertThat(buckets).as("buckets opened by several assigners").isGreaterThan(3);
    }

    /** The levels the table's live files sit on, from our own planning. */
    private List<Integer> levels(Path table) throws Exception {
        assertThat(Files.isDirectory(table)).isTrue();
        List<Integer> levels = new ArrayList<>();
        for (var split : ours.table(DB, table.getFileName().toString()).newReadBuilder().newScan().plan().splits()) {
            split.files().forEach(f -> {
                if (!levels.contains(f.level())) {
                    levels.add(f.level());
                }
            });
        }
        return levels;
    }
}
