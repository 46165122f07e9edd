package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.Filter;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.e2e.oracle.TestData;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Append tables written by us are read by Apache Paimon 1.3.1 and vice versa, with the same rows,
 * partitions (including escaped and NULL values) and pruning on both sides.
 */
class AppendTableInteropTest extends InteropTestBase {
    private static final String DB = "interop";


    AppendTableInteropTest() {
        super(DB);
    }

    /** Three commits of the all-types table. */
    private List<List<CanonicalRow>> batches() {
        return List.of(TestData.allTypesRows(0, 40), TestData.allTypesRows(40, 45), TestData.allTypesRows(85, 15));
    }

    private static List<CanonicalRow> concat(List<List<CanonicalRow>> batches) {
        List<CanonicalRow> all = new ArrayList<>();
        batches.forEach(all::addAll);
        return all;
    }

    /** Filters that exercise partition pruning (incl. NULL and escaped values) and stats pruning. */
    private static List<Filter> filters() {
        return List.of(
                Filter.eq("p_str", "a/b=c d%"),
                Filter.isNull("p_str"),
                Filter.eq("p_str", ""),
                Filter.and(Filter.eq("p_str", "plain"), Filter.ge("id", 50)),
                Filter.ge("id", 90),
                Filter.lt("c_ts3", java.time.LocalDateTime.of(1970, 1, 1, 0, 0)),
                Filter.eq("p_date", TestData.P_DATE_VALUES.get(0)),
                Filter.startsWith("c_string", "a"));
    }

    @Test
    void paimonReadsAllTypesWeWrote() throws Exception {
        TableSpec spec = TestData.allTypesTable();
        ours.createTable(DB, "t", spec);
        for (List<CanonicalRow> batch : batches()) {
            ours.write(DB, "t", batch);
        }
        List<CanonicalRow> all = concat(batches());
        Canon.assertSameRows("Paimon reading our table", all, paimon.readAll(DB, "t"));
        assertThat(paimon.latestSnapshotId(DB, "t").getAsLong()).isEqualTo(3);

        int totalFiles = paimon.scan(DB, "t", PaimonOracle.Query.all()).files();
        for (Filter f : filters()) {
            PaimonOracle.ScanResult r = paimon.scan(DB, "t", PaimonOracle.Query.all().filter(f));
            Canon.assertSameRows("Paimon with filter " + f, f.apply(all, spec), r.rows());
            if (f.columns().contains("p_str") || f.columns().contains("p_date")) {
                assertThat(r.files()).as("files Paimon planned for %s", f).isLessThan(totalFiles);
            }
        }
        // Stats pruning: ids >= 90 sit only in the third commit's files.
        assertThat(paimon.scan(DB, "t", PaimonOracle.Query.all().filter(Filter.ge("id", 90))).files())
                .isLessThan(totalFiles);
        assertThat(paimon.listPartitions(DB, "t")).hasSizeGreaterThan(5);
    }

    @Test
    void weReadAllTypesPaimonWrote() throws Exception {
        TableSpec spec = TestData.allTypesTable();
        paimon.createDatabase(DB);
        paimon.createTable(DB, "t", spec);
        for (List<CanonicalRow> batch : batches()) {
            paimon.write(DB, "t", batch);
        }
        List<CanonicalRow> all = concat(batches());
        Canon.assertSameRows("our reading of Paimon's table", all, ours.readAll(DB, "t"));

        int totalFiles = ours.scan(DB, "t", null, null).files();
        for (Filter f : filters()) {
            OurStore.ScanResult r = ours.scan(DB, "t", null, f);
            Canon.assertSameRows("ours with filter " + f, f.apply(all, spec), r.rows());
            if (f.columns().contains("p_str") || f.columns().contains("p_date")) {
                assertThat(r.files()).as("files we planned for %s", f).isLessThan(totalFiles);
            }
        }
        assertThat(ours.scan(DB, "t", null, Filter.ge("id", 90)).files()).isLessThan(totalFiles);

        // Projection, including a filter on an unprojected column.
        OurStore.ScanResult projected = ours.scan(DB, "t", List.of("c_string", "id"), Filter.eq("p_str", "plain"));
        List<CanonicalRow> expected = new ArrayList<>();
        for (CanonicalRow row : Filter.eq("p_str", "plain").apply(all, spec)) {
            expected.add(row.project(spec.indexOf("c_string"), spec.indexOf("id")));
        }
        Canon.assertSameRows("projected rows", expected, projected.rows());
    }

    @Test
    void eachSideAppendsToTheOthersTable() throws Exception {
        TableSpec spec = TestData.allTypesTable();
        ours.createTable(DB, "ours", spec);
        ours.write(DB, "ours", TestData.allTypesRows(0, 30));
        paimon.write(DB, "ours", TestData.allTypesRows(30, 30));
        ours.write(DB, "ours", TestData.allTypesRows(60, 10));
        List<CanonicalRow> expectedOurs = TestData.allTypesRows(0, 70);
        Canon.assertSameRows(expectedOurs, ours.readAll(DB, "ours"));
        Canon.assertSameRows(expectedOurs, paimon.readAll(DB, "ours"));

        paimon.createTable(DB, "theirs", spec);
        paimon.write(DB, "theirs", TestData.allTypesRows(0, 25));
        ours.write(DB, "theirs", TestData.allTypesRows(25, 25));
        paimon.write(DB, "theirs", TestData.allTypesRows(50, 5));
        List<CanonicalRow> expectedTheirs = TestData.allTypesRows(0, 55);
        Canon.assertSameRows(expectedTheirs, ours.readAll(DB, "theirs"));
        Canon.assertSameRows(expectedTheirs, paimon.readAll(DB, "theirs"));
    }

    /**
     * A fixed-bucket append table keeps each bucket's rows in write order for both stores, across
     * writes by either and compactions by either (Paimon refuses to read a fixed bucket whose files'
     * sequence ranges overlap): our writes number rows on from the bucket's largest
     * sequence number (Paimon orders a bucket's files by it), and our compaction rewrites consecutive
     * files only.
     */
    @Test
    void bucketRowOrderSurvivesWritesAndCompactionsByEitherSide() throws Exception {
        TableSpec spec = TableSpec.of("id", "INT", "v", "STRING").withOption("bucket", "2")
                .withOption("bucket-key", "id");
        paimon.createDatabase(DB);
        paimon.createTable(DB, "ordered", spec);
        int next = 0;
        for (int batch = 0; batch < 4; batch++) {
            List<CanonicalRow> rows = new ArrayList<>();
            for (int i = 0; i < 10; i++, next++) {
                rows.add(CanonicalRow.of(next, "r" + next));
            }
            // Four commits: fewer files than 'compaction.min.file-num', so neither writer compacts on its own.
            if (batch == 0) {
                paimon.write(DB, "ordered", rows);
            } else {
                ours.write(DB, "ordered", rows);
            }
        }
        assertIdsIncreasePerRun("Paimon reading the mixed writes", paimon.readAll(DB, "ordered"), 2, next);

        ours.compactAll(DB, "ordered", true);
        assertThat(ours.scan(DB, "ordered", null, null).files()).isEqualTo(2);
        assertIdsIncreasePerRun("Paimon reading after our compaction", paimon.readAll(DB, "ordered"), 2, next);

        List<CanonicalRow> more = new ArrayList<>();
        for (int i = 0; i < 10; i++, next++) {
            more.add(CanonicalRow.of(next, "r" + next));
        }
        ours.write(DB, "ordered", more);
        paimon.compactAll(DB, "ordered", true);
        assertIdsIncreasePerRun("our reading after Paimon's compaction", ours.readAll(DB, "ordered"), 2, next);
        assertIdsIncreasePerRun("Paimon reading after its compaction", paimon.readAll(DB, "ordered"), 2, next);
    }

    private static List<List<CanonicalRow>> batches(int from, int count, int size) {
        List<List<CanonicalRow>> out = new ArrayList<>();
        for (int b = 0; b < count; b++) {
            List<CanonicalRow> rows = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                int id = from + b * size + i;
                rows.add(CanonicalRow.of(id, "r" + id));
            }
            out.add(rows);
        }
        return out;
    }

    /**
     * A fixed-bucket table that our streaming-style writer compacted while writing it (as Paimon's
     * writers do) is read by Paimon 1.3.1 with each bucket in write order; Paimon continues writing
     * and compacting it, and our writer continues after Paimon.
     */
    @Test
    void paimonReadsAndContinuesAFixedBucketTableOurWriterCompacted() throws Exception {
        TableSpec spec = TableSpec.of("id", "INT", "v", "STRING").withOption("bucket", "2")
                .withOption("bucket-key", "id").withOption("compaction.min.file-num", "3");
        ours.createTable(DB, "compacted", spec);
        ours.writeAsOneJob(DB, "compacted", batches(0, 8, 10));
        assertThat(ours.compactSnapshots(DB, "compacted")).isPositive();
        assertThat(ours.scan(DB, "compacted", null, null).files()).as("at most two files per bucket")
                .isLessThanOrEqualTo(4);
        assertIdsIncreasePerRun("Paimon reading our compacted table", paimon.readAll(DB, "compacted"), 2, 80);

        for (List<CanonicalRow> batch : batches(80, 4, 10)) {
            paimon.write(DB, "compacted", batch);
        }
        assertIdsIncreasePerRun("Paimon reading after its writes", paimon.readAll(DB, "compacted"), 2, 120);
        assertIdsIncreasePerRun("our reading after Paimon's writes", ours.readAll(DB, "compacted"), 2, 120);

        int compactions = ours.compactSnapshots(DB, "compacted");
        ours.writeAsOneJob(DB, "compacted", batches(120, 4, 10));
        assertThat(ours.compactSnapshots(DB, "compacted")).as("our writer compacted Paimon's files too")
                .isGreaterThan(compactions);
        assertIdsIncreasePerRun("Paimon reading after our writes", paimon.readAll(DB, "compacted"), 2, 160);
        assertIdsIncreasePerRun("our reading after our writes", ours.readAll(DB, "compacted"), 2, 160);
    }

    /**
     * A table without buckets that our compaction coordinator and worker compacted is read by Paimon
     * 1.3.1; Paimon appends to it, and our coordinator compacts Paimon's files as well.
     */
    @Test
    void paimonReadsAndContinuesATableWithoutBucketsOurCoordinatorCompacted() throws Exception {
        TableSpec spec = TableSpec.of("id", "INT", "v", "STRING").withOption("compaction.min.file-num", "3");
        ours.createTable(DB, "unaware", spec);
        for (List<CanonicalRow> batch : batches(0, 4, 10)) {
            ours.write(DB, "unaware", batch);
        }
        assertThat(ours.compactWithCoordinator(DB, "unaware")).isEqualTo(1);
        assertThat(ours.scan(DB, "unaware", null, null).files()).isEqualTo(1);
        List<CanonicalRow> expected = new ArrayList<>();
        batches(0, 4, 10).forEach(expected::addAll);
        Canon.assertSameRows("Paimon reading our compacted table", expected, paimon.readAll(DB, "unaware"));

        for (List<CanonicalRow> batch : batches(40, 2, 10)) {
            paimon.write(DB, "unaware", batch);
            expected.addAll(batch);
        }
        Canon.assertSameRows("our reading after Paimon's writes", expected, ours.readAll(DB, "unaware"));
        assertThat(ours.compactWithCoordinator(DB, "unaware")).isEqualTo(1);
        assertThat(ours.scan(DB, "unaware", null, null).files()).isEqualTo(1);
        Canon.assertSameRows("Paimon reading after our second compaction", expected, paimon.readAll(DB, "unaware"));
        Canon.assertSameRows("our reading after our second compaction", expected, ours.readAll(DB, "unaware"));
    }

    /**
     * The rows hold ids 0..count-1 exactly once and, read bucket after bucket, fall into at most
     * {@code buckets} runs of increasing ids: each bucket's rows in write order.
     */
    private static void assertIdsIncreasePerRun(String what, List<CanonicalRow> rows, int buckets, int count) {
        List<Integer> ids = new ArrayList<>();
        for (CanonicalRow r : rows) {
            ids.add(((Number) r.get(0)).intValue());
        }
        assertThat(ids).as(what).hasSize(count).doesNotHaveDuplicates();
        int runs = 1;
        for (int i = 1; i < ids.size(); i++) {
            if (ids.get(i) < ids.get(i - 1)) {
                runs++;
            }
        }
        assertThat(runs).as(what + ": runs of increasing ids in " + ids).isLessThanOrEqualTo(buckets);
    }

    @Test
    void nestedTypesBothWays() throws Exception {
        TableSpec spec = TestData.nestedTable();
        ours.createTable(DB, "ours_nested", spec);
        ours.write(DB, "ours_nested", TestData.nestedRows(0, 25));
        ours.write(DB, "ours_nested", TestData.nestedRows(25, 10));
        Canon.assertSameRows(TestData.nestedRows(0, 35), paimon.readAll(DB, "ours_nested"));

        paimon.createTable(DB, "theirs_nested", spec);
        paimon.write(DB, "theirs_nested", TestData.nestedRows(0, 25));
        paimon.write(DB, "theirs_nested", TestData.nestedRows(25, 10));
        Canon.assertSameRows(TestData.nestedRows(0, 35), ours.readAll(DB, "theirs_nested"));
    }

    @Test
    void fixedBucketTablesPutEveryRowInPaimonsBucket() throws Exception {
        TableSpec spec = TestData.allTypesTable().withOption("bucket", "3").withOption("bucket-key", "id");
        ours.createTable(DB, "ours_b", spec);
        ours.write(DB, "ours_b", TestData.allTypesRows(0, 60));
        paimon.createTable(DB, "theirs_b", spec);
        paimon.write(DB, "theirs_b", TestData.allTypesRows(0, 60));
        // Paimon prunes buckets for an equality on the bucket key: a row in a wrong bucket would vanish.
        for (int id = 0; id < 60; id += 7) {
            Filter f = Filter.eq("id", id);
            Canon.assertSameRows("Paimon reading id " + id + " from our table",
                    List.of(TestData.allTypesRow(id)), paimon.scan(DB, "ours_b", PaimonOracle.Query.all().filter(f)).rows());
            Canon.assertSameRows("us reading id " + id + " from Paimon's table",
                    List.of(TestData.allTypesRow(id)), ours.scan(DB, "theirs_b", null, f).rows());
        }
        Canon.assertSameRows(TestData.allTypesRows(0, 60), paimon.readAll(DB, "ours_b"));
        Canon.assertSameRows(TestData.allTypesRows(0, 60), ours.readAll(DB, "theirs_b"));
    }

    @Test
    void partitionDirectoriesMatchPaimons() throws Exception {
        TableSpec spec = TestData.allTypesTable();
        ours.createTable(DB, "ours_dirs", spec);
        ours.write(DB, "ours_dirs", TestData.allTypesRows(0, 100));
        paimon.createTable(DB, "theirs_dirs", spec);
        paimon.write(DB, "theirs_dirs", TestData.allTypesRows(0, 100));
        assertThat(partitionDirs(warehouse.resolve(DB + ".db/ours_dirs")))
                .isEqualTo(partitionDirs(warehouse.resolve(DB + ".db/theirs_dirs")))
                .contains("p_str=a%2Fb%3Dc d%25/p_date=" + LocalDate.of(2024, 1, 2).toEpochDay() + "/bucket-0")
                .anyMatch(d -> d.startsWith("p_str=__DEFAULT_PARTITION__/"));
    }

    private static List<String> partitionDirs(Path table) throws Exception {
        List<String> out = new ArrayList<>();
        try (var walk = java.nio.file.Files.walk(table)) {
            walk.filter(p -> p.getFileName().toString().startsWith("bucket-"))
                    .forEach(p -> out.add(table.relativize(p).toString()));
        }
        out.sort(null);
        return out;
    }
}
