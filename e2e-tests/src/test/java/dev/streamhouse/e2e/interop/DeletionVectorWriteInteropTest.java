package dev.streamhouse.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.PaimonRows;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.source.Split;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
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

    private static TableSpec spec(String[] options) {
        TableSpec spec = TableSpec.of("dt", "STRING", "id", "INT", "a", "INT", "b", "STRING", "c", "BIGINT")
                .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "2")
                .withOption("deletion-vectors.enabled", "true");
        for (int i = 0; i < options.length; i += 2) {
            spec = spec.withOption(options[i], options[i + 1]);
        }
        return spec;
    }

    private static List<CanonicalRow> batch(Random random, int size, boolean deletes, Set<String> written) {
        List<CanonicalRow> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String dt = random.nextBoolean() ? "2026-12-01" : "2026-12-02";
            int id = random.nextInt(40);
            Integer a = random.nextInt(5) == 0 ? null : random.nextInt(100);
            String b = random.nextInt(4) == 0 ? null : "b" + random.nextInt(50);
            Long c = random.nextInt(5) == 0 ? null : (long) random.nextInt(1000);
            boolean delete = deletes && written.contains(dt + id) && random.nextInt(4) == 0;
            out.add(CanonicalRow.ofKind(delete ? Kind.DELETE : Kind.INSERT, dt, id, a, b, c));
            written.add(dt + id);
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tables")
    void bothStoresWriteAndReadEachOthersDeletionVectors(String name, String[] options, boolean deletes)
            throws Exception {
        Random random = new Random(name.hashCode());
        Set<String> written = new HashSet<>();
        ours.createTable(DB, "t", spec(options));
        boolean naiveDiffered = false;
        for (int turn = 1; turn <= 12; turn++) {
            List<CanonicalRow> rows = batch(random, 60, deletes, written);
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
            naiveDiffered |= Canon.diff(Canon.withKind(theirs, Kind.INSERT), Canon.withKind(naiveRead(), Kind.INSERT))
                    != null;
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
                    paimon.streamUntilLatest(DB, "t", fromStart), ourStream(fromStart));
        }
    }

    /** Paimon's batch plan read raw file by file with the deletion files left out of its splits. */
    private List<CanonicalRow> naiveRead() throws Exception {
        org.apache.paimon.table.Table t = paimon.table(DB, "t");
        org.apache.paimon.table.source.ReadBuilder rb = t.newReadBuilder();
        List<Split> splits = new ArrayList<>();
        for (Split s : rb.newScan().plan().splits()) {
            org.apache.paimon.table.source.DataSplit ds = (org.apache.paimon.table.source.DataSplit) s;
            splits.add(org.apache.paimon.table.source.DataSplit.builder().withSnapshot(ds.snapshotId())
                    .withPartition(ds.partition()).withBucket(ds.bucket()).withBucketPath(ds.bucketPath())
                    .withTotalBuckets(ds.totalBuckets()).withDataFiles(ds.dataFiles()).rawConvertible(true)
                    .isStreaming(false).build());
        }
        List<CanonicalRow> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(splits)) {
            reader.forEachRemaining(r -> rows.add(PaimonRows.toCanonical(r, t.rowType())));
        }
        return rows;
    }

    /** Our streaming read with these options, plan by plan, until it has passed the latest snapshot. */
    private List<CanonicalRow> ourStream(java.util.Map<String, String> options) throws Exception {
        dev.streamhouse.storage.table.Table t = ours.table(DB, "t").copy(options);
        dev.streamhouse.storage.table.source.ReadBuilder rb = t.newReadBuilder();
        dev.streamhouse.storage.table.source.StreamTableScan scan = rb.newStreamScan();
        long latest = t.latestSnapshot().orElseThrow().id();
        List<CanonicalRow> out = new ArrayList<>();
        for (int round = 0; round < 4 * latest + 10; round++) {
            List<dev.streamhouse.storage.table.source.DataSplit> splits = scan.plan().splits();
            rb.newRead().createReader(splits).forEachRemaining(r ->
                    out.add(dev.streamhouse.e2e.oracle.OurRows.toCanonical(r, rb.readType())));
            Long next = scan.checkpoint();
            if (next != null && next > latest) {
                return out;
            }
        }
        throw new AssertionError("our stream scan did not get past snapshot " + latest);
    }
}
