package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.table.source.DataSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables Apache Paimon 1.3.1 writes with lookup compaction ({@code changelog-producer} = lookup, and
 * {@code force-lookup}) over many commits, so that keys live on several levels at once and the version
 * on the smallest level above 0 already holds the deeper ones merged: our batch read of every snapshot
 * equals Paimon's (merging the deeper versions again would count an aggregation's older values twice,
 * and bring back partial-update columns a removal cleared), and our streaming read returns exactly the
 * changelog Paimon's own streaming read returns, with kinds and in order per key.
 *
 * <p>Merged without the rule (every version), the aggregation, force-lookup and partial-update removal
 * tests fail; deduplicate and first-row cannot tell.
 */
class LookupChangelogInteropTest extends InteropTestBase {
    private static final String DB = "lk";
    private static final int COMMITS = 10;

    LookupChangelogInteropTest() {
        super(DB);
    }

    /**
     * A merge engine configuration, what its input may hold, and whether its changelog removes keys
     * (aggregation retracts a -D's values instead).
     */
    private record Engine(String name, boolean retractions, boolean deletes, boolean nulls, boolean changelogDeletes,
            String... options) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final Engine AGGREGATION = new Engine("aggregation", true, true, true, false, "merge-engine",
            "aggregation", "fields.a.aggregate-function", "sum", "fields.b.aggregate-function", "last_non_null_value",
            "fields.b.ignore-retract", "true", "fields.c.aggregate-function", "sum");

    private static final Engine PARTIAL_UPDATE = new Engine("partial-update", false, true, true, true,
            "merge-engine", "partial-update", "partial-update.remove-record-on-delete", "true");

    private static final Engine FIRST_ROW = new Engine("first-row", false, false, false, false, "merge-engine",
            "first-row");

    static Stream<Arguments> engines() {
        return Stream.of(
                Arguments.of(new Engine("deduplicate", true, true, false, true)),
                Arguments.of(PARTIAL_UPDATE),
                Arguments.of(AGGREGATION),
                Arguments.of(FIRST_ROW));
    }

    /** (dt, id, a, b, c) keyed by (dt, id) over 2 partitions and 3 buckets; compactions start early. */
    private static TableSpec spec(Engine engine, String... more) {
        TableSpec spec = TableSpec.of("dt", "STRING", "id", "INT", "a", "BIGINT", "b", "STRING", "c", "BIGINT")
                .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "3")
                .withOption("num-sorted-run.compaction-trigger", "3");
        for (int i = 0; i < engine.options().length; i += 2) {
            spec = spec.withOption(engine.options()[i], engine.options()[i + 1]);
        }
        for (int i = 0; i < more.length; i += 2) {
            spec = spec.withOption(more[i], more[i + 1]);
        }
        return spec;
    }

    /**
     * Random changes over 2 x 20 keys: +I of new keys, then +U (with -U before it when the engine takes
     * retractions) or -D of written ones; partial-update and aggregation rows have NULLs, and a key
     * inserted again after its removal always has a NULL {@code a} (which a merge with the versions from
     * before the removal would fill). {@code written} maps each key to its last row, null once removed.
     */
    private static List<CanonicalRow> batch(Random random, Engine engine, int size, Map<String, CanonicalRow> written) {
        List<CanonicalRow> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String dt = random.nextBoolean() ? "2026-12-01" : "2026-12-02";
            int id = random.nextInt(20);
            String key = dt + "/" + id;
            CanonicalRow old = written.get(key);
            boolean again = old == null && written.containsKey(key);
            Long a = engine.nulls() && (again || random.nextInt(4) == 0) ? null : (long) random.nextInt(1000);
            String b = engine.nulls() && random.nextInt(3) == 0 ? null : "b" + random.nextInt(100);
            Long c = engine.nulls() && random.nextInt(4) == 0 ? null : (long) random.nextInt(50);
            CanonicalRow next = CanonicalRow.ofKind(Kind.INSERT, dt, id, a, b, c);
            if (old == null) {
                out.add(next);
                written.put(key, next);
            } else if (engine.deletes() && random.nextInt(4) == 0) {
                out.add(old.withKind(Kind.DELETE));
                written.put(key, null);
            } else {
                if (engine.retractions() && random.nextInt(3) == 0) {
                    out.add(old.withKind(Kind.UPDATE_BEFORE));
                }
                out.add(next.withKind(Kind.UPDATE_AFTER));
                written.put(key, next);
            }
        }
        return out;
    }

    /** Paimon writes the table, one commit per batch (each followed by its lookup compaction). */
    private List<CanonicalRow> paimonWrites(String table, TableSpec spec, Engine engine, long seed) {
        paimon.createTable(DB, table, spec);
        Random random = new Random(seed);
        Map<String, CanonicalRow> written = new TreeMap<>();
        List<CanonicalRow> input = new ArrayList<>();
        for (int i = 0; i < COMMITS; i++) {
            List<CanonicalRow> rows = batch(random, engine, 30, written);
            input.addAll(rows);
            paimon.write(DB, table, rows);
        }
        return input;
    }

    /** The levels above 0 that hold files of each bucket of the latest snapshot, by "partition/bucket". */
    private Map<String, Set<Integer>> levelsAboveZero(String table) throws Exception {
        Map<String, Set<Integer>> out = new TreeMap<>();
        for (DataSplit split : ours.table(DB, table).newReadBuilder().newScan().plan().splits()) {
            for (DataFileMeta f : split.files()) {
                if (f.level() > 0) {
                    out.computeIfAbsent(split.partition() + "/" + split.bucket(), k -> new TreeSet<>()).add(f.level());
                }
            }
        }
        return out;
    }

    private void assertKeysLiveOnSeveralLevels(String table) throws Exception {
        assertThat(levelsAboveZero(table).values()).as("buckets with files on two or more levels above 0")
                .anySatisfy(levels -> assertThat(levels).hasSizeGreaterThan(1));
    }

    /** Our batch read of every snapshot equals Paimon's. */
    private void assertSameBatchReadOfEverySnapshot(String table) throws Exception {
        long latest = paimon.latestSnapshotId(DB, table).orElseThrow();
        for (long id = 1; id <= latest; id++) {
            List<CanonicalRow> theirs = paimon.readSnapshot(DB, table, id);
            Canon.assertSameRowsIgnoringKind(table + " at snapshot " + id + " (Paimon, ours)", theirs,
                    ours.readSnapshot(DB, table, id));
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

    /** The table a changelog leaves: +I/+U put the row, -U/-D remove it. */
    private static List<CanonicalRow> applied(List<CanonicalRow> changelog) {
        Map<String, CanonicalRow> rows = new TreeMap<>();
        for (CanonicalRow r : changelog) {
            String key = r.get(0) + "/" + r.get(1);
            if (r.kind() == Kind.INSERT || r.kind() == Kind.UPDATE_AFTER) {
                rows.put(key, r.withKind(Kind.INSERT));
            } else {
                rows.remove(key);
            }
        }
        return new ArrayList<>(rows.values());
    }

    /**
     * Our streaming read equals Paimon's: the snapshot read in full first (when {@code full}), by rows,
     * then the changelog, by rows and kinds in order per key. Returns our changelog (without the full
     * read).
     */
    private List<CanonicalRow> assertSameStream(String table, boolean full, Map<String, String> options)
            throws Exception {
        List<List<CanonicalRow>> theirs = paimon.streamPlansUntilLatest(DB, table, options);
        List<List<CanonicalRow>> mine = ours.streamPlansUntilLatest(DB, table, options);
        String what = "our streaming read of " + table + " with " + options;
        if (full) {
            // Kinds of the full read differ: Paimon returns +I for files it reads without merging and the
            // stored kind (+U, ...) for merged keys; this store returns the stored kind for both.
            Canon.assertSameRowsIgnoringKind(what + ": the full snapshot", theirs.get(0), mine.get(0));
            assertThat(mine.get(0)).extracting(CanonicalRow::kind).doesNotContain(Kind.UPDATE_BEFORE, Kind.DELETE);
        }
        List<CanonicalRow> theirChanges = changes(theirs, full);
        List<CanonicalRow> myChanges = changes(mine, full);
        assertThat(myChanges).as(what + ": the changelog").hasSameSizeAs(theirChanges);
        assertThat(byKey(myChanges)).as(what + ": the changelog per key").isEqualTo(byKey(theirChanges));
        return myChanges;
    }

    private static List<CanonicalRow> changes(List<List<CanonicalRow>> plans, boolean full) {
        List<CanonicalRow> out = new ArrayList<>();
        plans.subList(full ? 1 : 0, plans.size()).forEach(out::addAll);
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void weReadPaimonsLookupChangelogTablesInBatchAndStreaming(Engine engine) throws Exception {
        String table = "t_" + engine.name().replace('-', '_');
        List<CanonicalRow> input = paimonWrites(table, spec(engine, "changelog-producer", "lookup"), engine,
                engine.name().hashCode());
        if (engine != FIRST_ROW) {
            // First-row is merged as it is without lookups: its compaction keeps a key on one level.
            assertKeysLiveOnSeveralLevels(table);
        }
        assertSameBatchReadOfEverySnapshot(table);
        List<CanonicalRow> latest = ours.readAll(DB, table);
        if (engine == AGGREGATION) {
            assertThat(sumsOfA(latest)).as("sum(a) per key, counting every input row once").isEqualTo(sumsOfA(input));
        }

        // The changelog from the first snapshot on: what Paimon streams, and it ends in the table.
        List<CanonicalRow> changelog = assertSameStream(table, false, Map.of("scan.mode", "from-snapshot",
                "scan.snapshot-id", "1"));
        Canon.assertSameRowsIgnoringKind("the table our changelog of " + table + " leaves", latest,
                applied(changelog));
        if (engine == FIRST_ROW) {
            assertThat(changelog).as("first-row's changelog").extracting(CanonicalRow::kind).containsOnly(Kind.INSERT);
            assertThat(byKey(changelog).values()).as("one insert per key").allSatisfy(c -> assertThat(c).hasSize(1));
        } else {
            assertThat(changelog).extracting(CanonicalRow::kind).contains(Kind.INSERT, Kind.UPDATE_BEFORE,
                    Kind.UPDATE_AFTER);
            if (engine.changelogDeletes()) {
                assertThat(changelog).extracting(CanonicalRow::kind).contains(Kind.DELETE);
            }
        }

        // A snapshot in full, then the changelog after it; and the latest snapshot in full, which is all.
        long middle = paimon.latestSnapshotId(DB, table).orElseThrow() / 2;
        List<CanonicalRow> after = assertSameStream(table, true, Map.of("scan.mode", "from-snapshot-full",
                "scan.snapshot-id", Long.toString(middle)));
        if (engine != FIRST_ROW) {
            assertThat(after).isNotEmpty(); // first-row's keys were all inserted by then
        }
        assertThat(assertSameStream(table, true, Map.of("scan.mode", "latest-full"))).isEmpty();

        // Our writer continues the table with its own lookup compactions; both stores still agree.
        ours.write(DB, table, List.of(CanonicalRow.of("2026-12-01", 1, 1L, "b", 1L)));
        assertSameBatchReadOfEverySnapshot(table);
        assertSameStream(table, false, Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"));
    }

    static Stream<Arguments> levelZeroTables() {
        return Stream.of(
                Arguments.of("deduplicate", new Engine("deduplicate", true, true, false, true), false),
                Arguments.of("deduplicate with deletion vectors", new Engine("deduplicate", true, true, false, true),
                        true),
                Arguments.of("aggregation", AGGREGATION, false),
                Arguments.of("partial-update with deletion vectors", PARTIAL_UPDATE, true));
    }

    /**
     * Paimon writes a lookup table (with and without deletion vectors), the last commit write-only, so
     * level-0 files stay uncompacted. A streaming read that starts with a full snapshot plans only the
     * files above level 0, as Paimon's does: the level-0 keys come once, with the changelog their later
     * compaction writes, and not in the full phase too. Ours streams the same rows as Paimon's, and the
     * full phase plus the changelog leave exactly the table.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("levelZeroTables")
    void fullStartingSnapshotsLeaveLevelZeroToTheChangelogAsPaimonsDo(String name, Engine engine, boolean dv)
            throws Exception {
        String table = "z_" + name.replaceAll("[^a-z]+", "_");
        paimon.createTable(DB, table, spec(engine, "changelog-producer", "lookup", "deletion-vectors.enabled",
                Boolean.toString(dv)));
        Random random = new Random(name.hashCode());
        Map<String, CanonicalRow> written = new TreeMap<>();
        for (int i = 0; i < 6; i++) {
            paimon.write(DB, table, batch(random, engine, 30, written));
        }
        paimon.writeWith(DB, table, Map.of("write-only", "true"), batch(random, engine, 30, written));
        long withLevelZero = paimon.latestSnapshotId(DB, table).orElseThrow();
        dev.streamhouse.storage.table.FileStoreTable ourTable =
                (dev.streamhouse.storage.table.FileStoreTable) ours.table(DB, table);
        assertThat(ourTable.newFileStoreScan().plan().files()).extracting(e -> e.file().level()).as("live levels")
                .contains(0);

        // The latest snapshot in full: above level 0 only, as Paimon plans it.
        List<DataSplit> firstPlan = ourTable.newReadBuilder().newStreamScan().plan().splits();
        assertThat(firstPlan).flatExtracting(DataSplit::files).isNotEmpty()
                .allSatisfy(f -> assertThat(f.level()).isPositive());
        if (dv) {
            assertThat(firstPlan).allSatisfy(sp -> assertThat(sp.deletionFiles()).hasSameSizeAs(sp.files()));
            assertThat(firstPlan).flatExtracting(DataSplit::deletionFiles).as("deletion files")
                    .anySatisfy(d -> assertThat(d).isNotNull());
        }
        Map<String, String> latestFull = Map.of("scan.mode", "latest-full");
        List<CanonicalRow> fullPhase = paimon.streamPlansUntilLatest(DB, table, latestFull).get(0);
        assertSameStream(table, true, latestFull);
        if (!dv) {
            // A batch read merges level 0 in: the level filter is what makes the full phase Paimon's.
            assertThat(Canon.diff(Canon.withKind(paimon.readAll(DB, table), Kind.INSERT),
                    Canon.withKind(fullPhase, Kind.INSERT))).as("the full phase differs from the batch read")
                    .isNotNull();
        }

        // Paimon compacts level 0 up: the full phase of that snapshot, then the changelog of the compaction.
        paimon.compactAll(DB, table, false);
        Map<String, String> fromLevelZero = Map.of("scan.mode", "from-snapshot-full", "scan.snapshot-id",
                Long.toString(withLevelZero));
        List<CanonicalRow> changelog = assertSameStream(table, true, fromLevelZero);
        assertThat(changelog).as("the changelog of the level-0 keys").isNotEmpty();
        List<CanonicalRow> all = new ArrayList<>(ours.streamPlansUntilLatest(DB, table, fromLevelZero).get(0));
        all.addAll(changelog);
        Canon.assertSameRowsIgnoringKind(name + ": the table the full phase and the changelog leave",
                ours.readAll(DB, table), applied(all));
    }

    /** sum(a) per key "dt/id" of the rows a table holds, or of input changes (-U/-D subtract). */
    private static Map<String, Long> sumsOfA(List<CanonicalRow> rows) {
        Map<String, Long> out = new TreeMap<>();
        for (CanonicalRow r : rows) {
            String key = r.get(0) + "/" + r.get(1);
            Long a = (Long) r.get(2);
            long signed = a == null ? 0 : r.kind() == Kind.UPDATE_BEFORE || r.kind() == Kind.DELETE ? -a : a;
            out.merge(key, signed, Long::sum);
        }
        return out;
    }

    @Test
    void partialUpdateRowsInsertedAgainAfterTheirRemovalKeepTheirNulls() throws Exception {
        // A large first commit (its file is too large to be compacted with small ones, so it stays on the
        // last level), then removals and re-inserts with a NULL column in commits of their own, which
        // lookup compaction merges on a level above: there the re-inserted row is the whole row, and the
        // old one below must not fill its NULL.
        paimon.createTable(DB, "pu", spec(PARTIAL_UPDATE, "changelog-producer", "lookup", "bucket", "1"));
        Random random = new Random(11);
        Map<Integer, CanonicalRow> expected = new TreeMap<>();
        for (int id = 0; id < 2000; id++) {
            expected.put(id, CanonicalRow.of("2026-12-01", id, (long) id, Long.toHexString(random.nextLong())
                    + Long.toHexString(random.nextLong()), (long) id));
        }
        paimon.write(DB, "pu", new ArrayList<>(expected.values()));
        for (int round = 0; round < 3; round++) {
            List<CanonicalRow> removals = new ArrayList<>();
            List<CanonicalRow> reinserts = new ArrayList<>();
            for (int id = round * 5; id < round * 5 + 5; id++) {
                removals.add(expected.get(id).withKind(Kind.DELETE));
                CanonicalRow again = CanonicalRow.of("2026-12-01", id, null, "again" + id, (long) -id);
                reinserts.add(again);
                expected.put(id, again);
            }
            paimon.write(DB, "pu", removals);
            paimon.write(DB, "pu", reinserts);
        }
        assertKeysLiveOnSeveralLevels("pu");
        assertSameBatchReadOfEverySnapshot("pu");
        Canon.assertSameRowsIgnoringKind("the re-inserted rows keep their NULL 'a'", new ArrayList<>(expected.values()),
                ours.readAll(DB, "pu"));
        assertSameStream("pu", false, Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"));
    }

    @Test
    void forceLookupTablesAreMergedAsTheirCompactionLeftThem() throws Exception {
        List<CanonicalRow> input = paimonWrites("forced", spec(AGGREGATION, "force-lookup", "true"), AGGREGATION, 7);
        assertKeysLiveOnSeveralLevels("forced");
        assertSameBatchReadOfEverySnapshot("forced");
        assertThat(sumsOfA(ours.readAll(DB, "forced"))).isEqualTo(sumsOfA(input));
        // Our writer continues it with lookup compactions, so Paimon merges it as we do.
        ours.write(DB, "forced", List.of(CanonicalRow.of("2026-12-01", 1, 1L, "b", 1L)));
        assertSameBatchReadOfEverySnapshot("forced");
    }
}
