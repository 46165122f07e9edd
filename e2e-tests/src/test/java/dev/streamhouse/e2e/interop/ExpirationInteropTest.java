package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.maintenance.expire.TableExpiration;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshot expiration and Apache Paimon 1.3.1: Paimon reads every snapshot our expiration retained
 * (and agrees on the earliest one), and a table we wrote stays readable for us, snapshot by snapshot,
 * after Paimon's own expiration ({@code Table.newExpireSnapshots()} and the expiration that runs
 * after its commits).
 */
class ExpirationInteropTest extends InteropTestBase {
    private static final String DB = "expire";
    private static final TableSpec SPEC = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING")
            .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "2");

    /** Current rows by "dt/id", and the rows every snapshot must read. */
    private final Map<String, CanonicalRow> model = new TreeMap<>();
    private final Map<Long, List<CanonicalRow>> rowsAt = new TreeMap<>();
    private int version;

    ExpirationInteropTest() {
        super(DB);
    }

    /** Upserts {@code size} keys (of 30, in 3 partitions) into the model. */
    private List<CanonicalRow> batch(int size) {
        List<CanonicalRow> rows = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            version++;
            int key = (version * 7) % 30;
            String dt = "2026-12-0" + (1 + key % 3);
            CanonicalRow row = CanonicalRow.of(dt, key, "v" + version);
            model.put(dt + "/" + key, row);
            rows.add(row);
        }
        return rows;
    }

    private long latestOfOurs(String table) {
        return ours.table(DB, table).latestSnapshot().orElseThrow().id();
    }

    /** Six writes by us with full compactions in between; remembers the rows of each snapshot. */
    private void writeByUs(String table) throws Exception {
        for (int round = 0; round < 6; round++) {
            ours.write(DB, table, batch(8));
            rowsAt.put(latestOfOurs(table), new ArrayList<>(model.values()));
            if (round % 2 == 1) {
                ours.compactAll(DB, table, true);
                rowsAt.put(latestOfOurs(table), new ArrayList<>(model.values()));
            }
        }
    }

    private List<Long> snapshotFiles(String table) throws Exception {
        try (Stream<Path> files = Files.list(paimon.tablePath(DB, table).resolve("snapshot"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("snapshot-"))
                    .map(n -> Long.parseLong(n.substring("snapshot-".length()))).sorted().toList();
        }
    }

    @Test
    void paimonReadsEverySnapshotOurExpirationRetained() throws Exception {
        ours.createTable(DB, "t", SPEC.withOption("snapshot.num-retained.min", "2")
                .withOption("snapshot.num-retained.max", "3"));
        writeByUs("t");

        long latest = latestOfOurs("t");
        assertThat(snapshotFiles("t")).containsExactly(latest - 2, latest - 1, latest);
        FileStoreTable theirs = (FileStoreTable) paimon.table(DB, "t");
        assertThat(theirs.snapshotManager().earliestSnapshotId()).isEqualTo(latest - 2);
        for (long id = latest - 2; id <= latest; id++) {
            Canon.assertSameRowsIgnoringKind("Paimon reading our snapshot " + id, rowsAt.get(id),
                    paimon.readSnapshot(DB, "t", id));
        }

        // Paimon commits on top, and its own expiration (same table options) leaves it readable for us.
        paimon.write(DB, "t", batch(5));
        paimon.write(DB, "t", batch(5));
        assertThat(snapshotFiles("t")).hasSize(3);
        Canon.assertSameRowsIgnoringKind("us after Paimon's commits and expiration", model.values(),
                ours.readAll(DB, "t"));
    }

    @Test
    void paimonsExpirationOfOurTableLeavesItReadableForUs() throws Exception {
        ours.createTable(DB, "t", SPEC);
        writeByUs("t");
        long latest = latestOfOurs("t");
        assertThat(snapshotFiles("t")).hasSize((int) latest); // our defaults keep young snapshots

        FileStoreTable theirs = (FileStoreTable) paimon.table(DB, "t");
        int expired = theirs.newExpireSnapshots().config(ExpireConfig.builder().snapshotRetainMin(3)
                .snapshotRetainMax(3).snapshotTimeRetain(Duration.ZERO).snapshotMaxDeletes(1000).build()).expire();
        assertThat(expired).isEqualTo((int) latest - 3);
        assertThat(snapshotFiles("t")).containsExactly(latest - 2, latest - 1, latest);
        for (long id = latest - 2; id <= latest; id++) {
            Canon.assertSameRowsIgnoringKind("us reading snapshot " + id + " after Paimon's expiration",
                    rowsAt.get(id), ours.readSnapshot(DB, "t", id));
        }

        // We write on and expire again on top of what Paimon left; Paimon still reads it.
        ours.write(DB, "t", batch(4));
        assertThat(TableExpiration.forTable(ours.table(DB, "t")).retainMin(1).retainMax(1).expireSnapshots())
                .isEqualTo(3);
        assertThat(snapshotFiles("t")).containsExactly(latest + 1);
        Canon.assertSameRowsIgnoringKind("Paimon after both expirations", model.values(), paimon.readAll(DB, "t"));
        Canon.assertSameRowsIgnoringKind("us after both expirations", model.values(), ours.readAll(DB, "t"));
    }

    /** The snapshot directory: each file's name, and for the hint files their content. */
    private String snapshotDirectory(String table) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(paimon.tablePath(DB, table).resolve("snapshot"))) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                out.put(name, name.equals("EARLIEST") || name.equals("LATEST") ? Files.readString(file) : "");
            }
        }
        return out.toString();
    }

    /**
     * The same commits by each store leave the same snapshot directory, hint files and their content
     * included: the EARLIEST hint from the first commit on (Paimon's expiration after a commit writes it
     * when missing, also when nothing expires), then moved by every expiration; for append and
     * primary-key tables, with the default retention and with a short one.
     */
    @Test
    void theSnapshotDirectoryListsWhatPaimonsListsAfterEachCommit() throws Exception {
        TableSpec append = TableSpec.of("id", "INT", "name", "STRING");
        TableSpec keyed = append.withPrimaryKeys("id").withOption("bucket", "1");
        Map<String, TableSpec> specs = new TreeMap<>(Map.of("a", append, "k", keyed,
                "ra", append.withOption("snapshot.num-retained.min", "2").withOption("snapshot.num-retained.max", "2"),
                "rk", keyed.withOption("snapshot.num-retained.min", "2").withOption("snapshot.num-retained.max", "2")));
        for (Map.Entry<String, TableSpec> spec : specs.entrySet()) {
            ours.createTable(DB, "o" + spec.getKey(), spec.getValue());
            paimon.createTable(DB, "p" + spec.getKey(), spec.getValue());
        }
        for (int commit = 1; commit <= 4; commit++) {
            List<CanonicalRow> rows = List.of(CanonicalRow.of(commit % 3, "v" + commit));
            for (String table : specs.keySet()) {
                ours.write(DB, "o" + table, rows);
                paimon.write(DB, "p" + table, rows);
                assertThat(snapshotDirectory("o" + table)).as("snapshot/ of %s after commit %d", table, commit)
                        .isEqualTo(snapshotDirectory("p" + table));
            }
        }
        assertThat(snapshotDirectory("ora")).isEqualTo("{EARLIEST=3, LATEST=4, snapshot-3=, snapshot-4=}");
        assertThat(snapshotDirectory("oa")).startsWith("{EARLIEST=1, LATEST=4, snapshot-1=");
    }
}
