package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.CdcModel;
import dev.streamhouse.e2e.oracle.OurRows;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.ChangelogRecords;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code changelog-producer} = lookup and full-compaction between our writer and Apache Paimon 1.3.1. Each write is one
 * commit, whose lookup compaction produces, per key it touched, the change from the table before the
 * commit to the table after it: +I, -D, or -U/+U. Paimon's own streaming scan of our table, of
 * Paimon's, and of one both write in turn (with compactions by either in between) yields exactly that
 * changelog, and so does our reader of the changelog files; batch reads of both stores agree with the
 * model. For aggregation (sum), where a deeper version merged twice would change the sums, both stores'
 * batch reads and Paimon's changelog follow the model too. With full-compaction, every write of ours
 * is a full compaction ({@code full-compaction.delta-commits} defaults to 1) and Paimon's writes are
 * followed by a full compaction, so each produces the same per-commit difference.
 */
class CompactionChangelogInteropTest extends InteropTestBase {
    private static final String DB = "lk";
    private static final TableSpec SPEC = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING", "amount", "BIGINT")
            .withPartitionKeys("dt").withPrimaryKeys("dt", "id")
            .withOption("bucket", "2").withOption("changelog-producer", "lookup")
            .withOption("num-sorted-run.compaction-trigger", "3");
    private static final TableSpec AGGREGATION = SPEC.withOption("merge-engine", "aggregation")
            .withOption("fields.amount.aggregate-function", "sum");
    private static final TableSpec FULL = SPEC.withOption("changelog-producer", "full-compaction");

    private final CdcModel cdc = new CdcModel(17, 15);
    /** The changelog the commits so far must have produced, in commit order. */
    private final List<CanonicalRow> expected = new ArrayList<>();

    CompactionChangelogInteropTest() {
        super(DB);
    }

    /** The next batch of CDC (one commit), with its expected changelog recorded. */
    private List<CanonicalRow> batch(int size) {
        Map<String, CanonicalRow> before = new TreeMap<>(cdc.live());
        List<CanonicalRow> rows = cdc.batch(size);
        Set<String> touched = new LinkedHashSet<>();
        for (CanonicalRow r : rows) {
            touched.add(r.get(0) + "/" + r.get(1));
        }
        for (String key : touched) {
            expect(before.get(key), cdc.live().get(key));
        }
        return rows;
    }

    private void expect(CanonicalRow before, CanonicalRow after) {
        if (before == null && after != null) {
            expected.add(after.withKind(Kind.INSERT));
        } else if (before != null && after == null) {
            expected.add(before.withKind(Kind.DELETE));
        } else if (before != null) {
            expected.add(before.withKind(Kind.UPDATE_BEFORE));
            expected.add(after.withKind(Kind.UPDATE_AFTER));
        }
    }

    /** Changes per key "dt/id", in order; the canonical strings keep the row kind. */
    private static Map<String, List<String>> byKey(List<CanonicalRow> rows) {
        Map<String, List<String>> out = new TreeMap<>();
        for (CanonicalRow r : rows) {
            out.computeIfAbsent(r.get(0) + "/" + r.get(1), k -> new ArrayList<>()).add(r.toString());
        }
        return out;
    }

    private List<CanonicalRow> ourChangelog(String table) throws Exception {
        FileStoreTable t = (FileStoreTable) ours.table(DB, table);
        List<CanonicalRow> out = new ArrayList<>();
        for (ChangelogRecords.Change c : ChangelogRecords.read(t)) {
            out.add(OurRows.toCanonical(c.value(), t.rowType()));
        }
        return out;
    }

    private List<CanonicalRow> ourStream(String table) throws Exception {
        List<CanonicalRow> out = new ArrayList<>();
        for (List<CanonicalRow> plan : ours.streamPlansUntilLatest(DB, table,
                Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"))) {
            out.addAll(plan);
        }
        return out;
    }

    private List<CanonicalRow> paimonStream(String table) throws Exception {
        return paimon.streamUntilLatest(DB, table, Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"));
    }

    @Test
    void paimonStreamsExactlyTheChangelogOfOurLookupTable() throws Exception {
        ours.createTable(DB, "ours", SPEC);
        for (int i = 0; i < 6; i++) {
            ours.write(DB, "ours", batch(40));
            if (i == 3) {
                ours.compactAll(DB, "ours", true);
            }
        }
        List<CanonicalRow> live = new ArrayList<>(cdc.live().values());
        Canon.assertSameRowsIgnoringKind("Paimon's batch read", live, paimon.readAll(DB, "ours"));
        Canon.assertSameRowsIgnoringKind("our batch read", live, ours.readAll(DB, "ours"));

        assertThat(byKey(paimonStream("ours"))).as("Paimon's streaming read of our changelog")
                .isEqualTo(byKey(expected));
        assertThat(byKey(ourChangelog("ours"))).as("our changelog files").isEqualTo(byKey(expected));
        assertThat(expected).extracting(CanonicalRow::kind).contains(Kind.UPDATE_BEFORE, Kind.DELETE, Kind.INSERT);
    }

    @Test
    void bothWritersInTurnKeepOneExactChangelog() throws Exception {
        ours.createTable(DB, "t", SPEC);
        ours.write(DB, "t", batch(40));
        paimon.write(DB, "t", batch(40));
        ours.write(DB, "t", batch(40));
        paimon.compactAll(DB, "t", false);
        paimon.write(DB, "t", batch(40));
        ours.write(DB, "t", batch(40));
        ours.compactAll(DB, "t", false);
        paimon.write(DB, "t", batch(40));
        ours.write(DB, "t", batch(40));

        List<CanonicalRow> live = new ArrayList<>(cdc.live().values());
        Canon.assertSameRowsIgnoringKind("Paimon's batch read", live, paimon.readAll(DB, "t"));
        Canon.assertSameRowsIgnoringKind("our batch read", live, ours.readAll(DB, "t"));
        assertThat(byKey(paimonStream("t"))).as("Paimon's streaming read of both writers' changelog")
                .isEqualTo(byKey(expected));
        assertThat(byKey(ourChangelog("t"))).as("our reading of both writers' changelog files")
                .isEqualTo(byKey(expected));
        assertThat(byKey(ourStream("t"))).as("our streaming read of both writers' changelog").isEqualTo(byKey(expected));
    }

    @Test
    void aggregationSumsStayExactWhicheverStoreCompacts() throws Exception {
        ours.createTable(DB, "agg", AGGREGATION);
        Random random = new Random(5);
        Map<String, CanonicalRow> sums = new TreeMap<>();
        for (int round = 0; round < 8; round++) {
            List<CanonicalRow> rows = new ArrayList<>();
            Map<String, CanonicalRow> before = new TreeMap<>(sums);
            Set<String> touched = new LinkedHashSet<>();
            for (int i = 0; i < 30; i++) {
                String dt = "2026-12-0" + (1 + random.nextInt(2));
                int id = random.nextInt(12);
                long amount = 1 + random.nextInt(9);
                String key = dt + "/" + id;
                String name = "n" + round + "-" + i;
                rows.add(CanonicalRow.ofKind(Kind.INSERT, dt, id, name, amount));
                CanonicalRow old = sums.get(key);
                sums.put(key, CanonicalRow.ofKind(Kind.INSERT, dt, id, name, old == null ? amount
                        : ((Number) old.get(3)).longValue() + amount));
                touched.add(key);
            }
            for (String key : touched) {
                expect(before.get(key), sums.get(key));
            }
            if (round % 2 == 0) {
                ours.write(DB, "agg", rows);
            } else {
                paimon.write(DB, "agg", rows);
            }
            if (round == 4) {
                paimon.compactAll(DB, "agg", false);
            } else if (round == 5) {
                ours.compactAll(DB, "agg", false);
            }
        }
        List<CanonicalRow> live = new ArrayList<>(sums.values());
        Canon.assertSameRowsIgnoringKind("Paimon's batch read", live, paimon.readAll(DB, "agg"));
        Canon.assertSameRowsIgnoringKind("our batch read", live, ours.readAll(DB, "agg"));
        assertThat(byKey(paimonStream("agg"))).as("Paimon's streaming read of the aggregated changelog")
                .isEqualTo(byKey(expected));
        assertThat(byKey(ourChangelog("agg"))).as("our changelog files").isEqualTo(byKey(expected));
    }

    @Test
    void paimonStreamsTheChangelogOfOurFullCompactions() throws Exception {
        ours.createTable(DB, "full", FULL);
        for (int i = 0; i < 5; i++) {
            ours.write(DB, "full", batch(40));
        }
        List<CanonicalRow> live = new ArrayList<>(cdc.live().values());
        Canon.assertSameRowsIgnoringKind("Paimon's batch read", live, paimon.readAll(DB, "full"));
        assertThat(byKey(paimonStream("full"))).as("Paimon's streaming read of our full-compaction changelog")
                .isEqualTo(byKey(expected));
        assertThat(byKey(ourChangelog("full"))).as("our changelog files").isEqualTo(byKey(expected));
    }

    @Test
    void fullCompactionChangelogOfBothWritersInTurn() throws Exception {
        ours.createTable(DB, "full2", FULL);
        ours.write(DB, "full2", batch(40));
        paimon.write(DB, "full2", batch(40));
        paimon.compactAll(DB, "full2", true);
        ours.write(DB, "full2", batch(40));
        paimon.write(DB, "full2", batch(40));
        paimon.compactAll(DB, "full2", true);
        ours.write(DB, "full2", batch(40));

        List<CanonicalRow> live = new ArrayList<>(cdc.live().values());
        Canon.assertSameRowsIgnoringKind("Paimon's batch read", live, paimon.readAll(DB, "full2"));
        Canon.assertSameRowsIgnoringKind("our batch read", live, ours.readAll(DB, "full2"));
        assertThat(byKey(paimonStream("full2"))).as("Paimon's streaming read").isEqualTo(byKey(expected));
        assertThat(byKey(ourChangelog("full2"))).as("our changelog files").isEqualTo(byKey(expected));
        assertThat(byKey(ourStream("full2"))).as("our streaming read").isEqualTo(byKey(expected));
    }

    /**
     * A streaming read of a full-compaction table that starts with a full snapshot plans only the last
     * level ({@code num-levels} - 1), what the last full compaction left, as Paimon's first streaming
     * plan does; the newer levels reach the reader with the changelog of the next full compaction.
     * Paimon writes the table: full compactions, then commits whose files stay below the last level.
     */
    @Test
    void fullStartingSnapshotOfAFullCompactionTableIsItsLastLevel() throws Exception {
        paimon.createTable(DB, "last", FULL);
        paimon.write(DB, "last", batch(40));
        paimon.compactAll(DB, "last", true);
        for (int i = 0; i < 4; i++) {
            paimon.write(DB, "last", batch(40));
        }
        paimon.writeWith(DB, "last", Map.of("write-only", "true"), batch(40));
        long start = paimon.latestSnapshotId(DB, "last").orElseThrow();
        FileStoreTable t = (FileStoreTable) ours.table(DB, "last");
        int lastLevel = 3; // num-sorted-run.compaction-trigger 3, so num-levels 4
        Set<Integer> liveLevels = new java.util.TreeSet<>();
        t.newFileStoreScan().plan().files().forEach(e -> liveLevels.add(e.file().level()));
        assertThat(liveLevels).as("live levels").contains(0, lastLevel).hasSizeGreaterThan(1);

        assertThat(t.newReadBuilder().newStreamScan().plan().splits())
                .flatExtracting(dev.streamhouse.storage.table.source.DataSplit::files).isNotEmpty()
                .allSatisfy(f -> assertThat(f.level()).isEqualTo(lastLevel));
        Map<String, String> latestFull = Map.of("scan.mode", "latest-full");
        List<CanonicalRow> theirFull = paimon.streamPlansUntilLatest(DB, "last", latestFull).get(0);
        Canon.assertSameRowsIgnoringKind("the full phase", theirFull,
                ours.streamPlansUntilLatest(DB, "last", latestFull).get(0));
        assertThat(Canon.diff(Canon.withKind(paimon.readAll(DB, "last"), Kind.INSERT),
                Canon.withKind(theirFull, Kind.INSERT))).as("the full phase differs from the batch read").isNotNull();

        // The next full compaction's changelog brings the newer levels, once.
        paimon.compactAll(DB, "last", true);
        Map<String, String> fromStart = Map.of("scan.mode", "from-snapshot-full", "scan.snapshot-id",
                Long.toString(start));
        List<List<CanonicalRow>> theirs = paimon.streamPlansUntilLatest(DB, "last", fromStart);
        List<List<CanonicalRow>> mine = ours.streamPlansUntilLatest(DB, "last", fromStart);
        Canon.assertSameRowsIgnoringKind("the full phase of snapshot " + start, theirs.get(0), mine.get(0));
        List<CanonicalRow> theirChanges = new ArrayList<>();
        List<CanonicalRow> myChanges = new ArrayList<>();
        theirs.subList(1, theirs.size()).forEach(theirChanges::addAll);
        mine.subList(1, mine.size()).forEach(myChanges::addAll);
        assertThat(theirChanges).as("the changelog of the full compaction").isNotEmpty();
        assertThat(byKey(myChanges)).as("our changelog after snapshot " + start).isEqualTo(byKey(theirChanges));
        Canon.assertSameRowsIgnoringKind("the live rows", new ArrayList<>(cdc.live().values()),
                ours.readAll(DB, "last"));
    }
}
