package dev.streamhouse.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.table.FileStoreTable;


import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Deletion vectors written by this store, read by Apache Paimon 1.3.1, and the other way round: for
 * deduplicate, partial-update and aggregation, 32- and 64-bit bitmaps and the lookup changelog
 * producer, the two stores write one table in turns (upserts, deletes, full compactions), and after
 * every turn both batch-read the same rows. Paimon's own reads apply our vectors (a read that ignores
 * them differs), its writer continues from our index files and ours from its, and with the lookup
 * producer Paimon's stream of the changelog both wrote equals ours.
 */
class DeletionVectorWriteInteropTest extends InteropTestBase {
    private static final String DB = "dvw";

    DeletionVectorWriteInteropTest() {
        super(DB);
    }

    /** Name, extra options, whether the input has deletes. */
    static Stream<Arguments> tables() {
        return Stream.of(
                Arguments.of("deduplicate", new String[] {}, true),
                Arguments.of("deduplicate, 64-bit bitmaps", new String[] {"deletion-vectors.bitmap64", "true"}, true),
                Arguments.of("partial-update", new String[] {"merge-engine", "partial-update"}, false),
                Arguments.of("aggregation sum", new String[] {"merge-engine", "aggregation",
                        "fields.a.aggregate-function", "sum", "fields.c.aggregate-function", "sum"}, false),
                Arguments.of("deduplicate, lookup changelog", new String[] {"changelog-producer", "lookup"}, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tables")
    void bothStoresWriteAndReadEachOthersDeletionVectors(String name, String[] options, boolean deletes)
            throws Exception {
        Random random = new Random(name.hashCode());
        Set<String> written = new HashSet<>();
        ours.createTable(DB, "t", DeletionVectorTables.spec(2, options));
        boolean naiveDiffered = false;
        for (int turn = 1; turn <= 12; turn++) {
            List<CanonicalRow> rows = DeletionVectorTables.batch(random, 60, 40, deletes, written);
            boolean oursTurn = (turn % 4) != 3;
            if (oursTurn) {
                ours.write(DB, "t", rows);
            } else {
                paimon.write(DB, "t", rows);
            }
            if (turn == 5) {
                ours.compactAll(DB, "t", true);
            } else if (turn == 9) {
                paimon.compactAll(DB, "t", true);
            }
            String step = name + ": after turn " + turn + " (" + (oursTurn ? "ours" : "Paimon") + ")";
            List<CanonicalRow> theirs = paimon.readAll(DB, "t");
            Canon.assertSameRowsIgnoringKind(step, theirs, ours.readAll(DB, "t"));
            assertThat(theirs).as(step + ": rows").isNotEmpty();
            List<CanonicalRow> naive = DeletionVectorTables.naiveRead(paimon, DB, "t");
            naiveDiffered |= Canon.diff(Canon.withKind(theirs, Kind.INSERT), Canon.withKind(naive, Kind.INSERT)) != null;
        }
        assertThat(naiveDiffered).as(name + ": a read that ignores the deletion vectors differed somewhere").isTrue();

        FileStoreTable ourTable = (FileStoreTable) ours.table(DB, "t");
        List<IndexManifestEntry> index = ourTable.indexManifestFile().read(
                ourTable.latestSnapshot().orElseThrow().indexManifest());
        assertThat(index).as("DV index files").isNotEmpty().allSatisfy(e -> assertThat(e.indexFile().indexType())
                .isEqualTo(IndexFileMeta.DELETION_VECTORS_INDEX));

        if (name.contains("lookup")) {
            java.util.Map<String, String> fromStart = java.util.Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1");
            Canon.assertSameRows(name + ": Paimon's stream of the changelog both stores wrote",
                    paimon.streamUntilLatest(DB, "t", fromStart), DeletionVectorTables.ourStream(ours, DB, "t", fromStart));
        }
    }

}
