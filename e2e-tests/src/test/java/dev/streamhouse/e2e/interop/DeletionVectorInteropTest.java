package dev.streamhouse.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.Filter;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;


import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Tables Apache Paimon 1.3.1 writes with {@code 'deletion-vectors.enabled' = 'true'}: its lookup
 * compactions mark the versions replaced by level-0 files deleted in DV index files, and its batch
 * reads skip level 0 and read every other file raw without the deleted rows. Paimon writes a table in
 * many commits of upserts and deletes over several buckets, with partial and full compactions and, at
 * the end, a write-only commit whose level-0 files stay; after every few commits our batch read (also
 * projected and filtered) equals Paimon's, and Paimon's equals no naive read that ignores the vectors.
 * Streaming reads start with the full snapshot as Paimon 1.3 plans it: every level merged, the
 * vectors applied; with {@code changelog-producer} = lookup only the files above level 0, read raw
 * with their vectors (the keys on level 0 come later with the changelog of their compaction); then they
 * follow the changes as for any table (Paimon 1.3 attaches vectors only to splits of full snapshots).
 * Ours do the same where the engine streams at all, the full splits carrying their deletion files.
 * Then our writer continues the table and both still read the same rows.
 */
class DeletionVectorInteropTest extends InteropTestBase {
    private static final String DB = "dv";
    private static final List<String> PROJECTION = List.of("c", "id", "dt", "b");
    private static final Filter FILTER = Filter.gt("id", 12);

    DeletionVectorInteropTest() {
        super(DB);
    }

    /** Name, extra options, whether the input has deletes, whether our store streams the table. */
    static Stream<Arguments> tables() {
        return Stream.of(
                Arguments.of("deduplicate", new String[] {}, true, true),
                Arguments.of("partial-update", new String[] {"merge-engine", "partial-update"}, false, false),
                Arguments.of("aggregation sum", new String[] {"merge-engine", "aggregation",
                        "fields.a.aggregate-function", "sum", "fields.c.aggregate-function", "sum",
                        "fields.b.ignore-retract", "true"}, true, false),
                Arguments.of("deduplicate, 64-bit bitmaps", new String[] {"deletion-vectors.bitmap64", "true"}, true,
                        true),
                Arguments.of("deduplicate, lookup changelog", new String[] {"changelog-producer", "lookup"}, true,
                        true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tables")
    void weReadWhatPaimonReadsOfItsTablesWithDeletionVectors(String name, String[] options, boolean deletes,
            boolean weStream) throws Exception {
        Random random = new Random(name.hashCode());
        Set<String> written = new HashSet<>();
        paimon.createTable(DB, "t", DeletionVectorTables.spec(3, options));
        boolean naiveDiffered = false;
        for (int commit = 1; commit <= 10; commit++) {
            paimon.write(DB, "t", DeletionVectorTables.batch(random, 70, 30, deletes, written));
            if (commit == 4) {
                paimon.compactAll(DB, "t", false);
            } else if (commit == 7) {
                paimon.compactAll(DB, "t", true);
            }
            if (commit % 3 == 0) {
                naiveDiffered |= assertBothRead(name + ": after commit " + commit);
            }
        }
        // Level-0 files on top, which batch reads do not see until they are compacted.
        paimon.writeWith(DB, "t", Map.of("write-only", "true"),
                DeletionVectorTables.batch(random, 70, 30, deletes, written));
        naiveDiffered |= assertBothRead(name + ": with level-0 files");
        assertThat(naiveDiffered).as(name + ": a read that ignores the deletion vectors differed somewhere").isTrue();

        FileStoreTable ourTable = (FileStoreTable) ours.table(DB, "t");
        List<IndexManifestEntry> index = ourTable.indexManifestFile().read(
                ourTable.latestSnapshot().orElseThrow().indexManifest());
        assertThat(index).as("DV index files").isNotEmpty().allSatisfy(e -> assertThat(e.indexFile().indexType())
                .isEqualTo(IndexFileMeta.DELETION_VECTORS_INDEX));
        assertThat(index.stream().map(IndexManifestEntry::bucket).distinct().count()).isGreaterThan(1);
        Set<Integer> liveLevels = new TreeSet<>();
        for (ManifestEntry e : ourTable.newFileStoreScan().plan().files()) {
            liveLevels.add(e.file().level());
        }
        assertThat(liveLevels).contains(0).hasSizeGreaterThan(1);
        assertThat(ourTable.newReadBuilder().newScan().plan().splits()).allSatisfy(s ->
                assertThat(s.files()).allSatisfy(f -> assertThat(f.level()).isPositive()));

        if (weStream) {
            // latest-full: the full snapshot (with the lookup producer above level 0 only), vectors applied
            Canon.assertSameRowsIgnoringKind(name + ": streaming full snapshot",
                    paimon.streamUntilLatest(DB, "t", Map.of()), DeletionVectorTables.ourStream(ours, DB, "t", Map.of()));
            List<DataSplit> firstPlan = ourTable.newReadBuilder().newStreamScan().plan().splits();
            assertThat(firstPlan).allSatisfy(s -> assertThat(s.deletionFiles()).hasSameSizeAs(s.files()));
            assertThat(firstPlan).flatExtracting(DataSplit::deletionFiles).as("deletion files")
                    .anySatisfy(d -> assertThat(d).isNotNull());
            Set<Integer> firstPlanLevels = new TreeSet<>();
            firstPlan.forEach(s -> s.files().forEach(f -> firstPlanLevels.add(f.level())));
            if (name.contains("lookup")) {
                assertThat(firstPlanLevels).as(name + ": levels of the first plan").doesNotContain(0);
                assertThat(firstPlan).allSatisfy(s -> assertThat(s.rawConvertible()).isTrue());
            } else {
                assertThat(firstPlanLevels).as(name + ": levels of the first plan").contains(0);
            }
            Canon.assertSameRows(name + ": streamed changes from snapshot 1",
                    paimon.streamUntilLatest(DB, "t", Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")),
                    DeletionVectorTables.ourStream(ours, DB, "t",
                            Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")));
            // A snapshot from the middle in full, then the changes after it.
            Map<String, String> middle = Map.of("scan.mode", "from-snapshot-full", "scan.snapshot-id", "6");
            List<List<CanonicalRow>> theirPlans = paimon.streamPlansUntilLatest(DB, "t", middle);
            List<List<CanonicalRow>> myPlans = ours.streamPlansUntilLatest(DB, "t", middle);
            Canon.assertSameRowsIgnoringKind(name + ": the full snapshot 6", theirPlans.get(0), myPlans.get(0));
            List<CanonicalRow> theirChanges = new ArrayList<>();
            List<CanonicalRow> myChanges = new ArrayList<>();
            theirPlans.subList(1, theirPlans.size()).forEach(theirChanges::addAll);
            myPlans.subList(1, myPlans.size()).forEach(myChanges::addAll);
            assertThat(theirChanges).as(name + ": the changes after snapshot 6").isNotEmpty();
            Canon.assertSameRows(name + ": the changes after snapshot 6", theirChanges, myChanges);
        } else {
            // The engine refuses streaming reads without a changelog producer.
            assertThatThrownBy(() -> ourTable.newReadBuilder().newStreamScan())
                    .isInstanceOf(RuntimeException.class)
                    .hasMessageContaining("Cannot stream-read table dv.t")
                    .hasMessageNotContaining("deletion");
        }
        // We continue Paimon's table (its vectors loaded, ours committed in their place) and both still agree.
        ours.write(DB, "t", DeletionVectorTables.batch(random, 40, 30, deletes, written));
        ours.compactAll(DB, "t", false);
        Canon.assertSameRowsIgnoringKind(name + ": after our writes", paimon.readAll(DB, "t"), ours.readAll(DB, "t"));
    }

    /**
     * Checks that both stores read the same rows, in full and projected and filtered, and returns
     * whether a read that ignores the vectors would have returned other rows.
     */
    private boolean assertBothRead(String step) throws Exception {
        List<CanonicalRow> theirs = paimon.readAll(DB, "t");
        Canon.assertSameRowsIgnoringKind(step, theirs, ours.readAll(DB, "t"));
        assertThat(theirs).as(step + ": rows").isNotEmpty();
        List<CanonicalRow> filtered = paimon.read(DB, "t", PROJECTION, FILTER);
        Canon.assertSameRowsIgnoringKind(step + ", projected and filtered", filtered,
                ours.scan(DB, "t", PROJECTION, FILTER).rows());
        assertThat(filtered).as(step + ": filtered rows").isNotEmpty().hasSizeLessThan(theirs.size());
        List<CanonicalRow> naive = DeletionVectorTables.naiveRead(paimon, DB, "t");
        return Canon.diff(Canon.withKind(theirs, Kind.INSERT), Canon.withKind(naive, Kind.INSERT)) != null;
    }

}
