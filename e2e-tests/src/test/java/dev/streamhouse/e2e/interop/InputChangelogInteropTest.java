package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CdcModel;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.OurRows;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.ChangelogRecords;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code changelog-producer = input} between our writer and Apache Paimon 1.3.1: Paimon's batch read of
 * our table returns the merged rows (changelog files are invisible to batch reads), Paimon's own
 * streaming scan of our table (from snapshot 1, which for this producer reads the APPEND snapshots'
 * changelog files) returns every input change exactly once and in order per key, and our changelog
 * reader sees every change Paimon's writer produced when Paimon continues the table.
 */
class InputChangelogInteropTest extends InteropTestBase {
    private static final String DB = "cl";
    private static final TableSpec SPEC = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING", "amount", "BIGINT")
            .withPartitionKeys("dt").withPrimaryKeys("dt", "id")
            .withOption("bucket", "2").withOption("changelog-producer", "input");

    /** The changes written and the table they leave. */
    private final CdcModel cdc = new CdcModel(11, 20);
    /** Every change written so far, in write order. */
    private final List<CanonicalRow> changes = new ArrayList<>();

    InputChangelogInteropTest() {
        super(DB);
    }

    /** A batch of complete CDC over 40 keys in 2 partitions, recorded in {@link #changes}. */
    private List<CanonicalRow> batch(int size) {
        List<CanonicalRow> rows = cdc.batch(size);
        changes.addAll(rows);
        return rows;
    }

    /** Changes per key "dt/id", in order; the canonical strings keep the row kind. */
    private static Map<String, List<String>> byKey(List<CanonicalRow> rows) {
        Map<String, List<String>> out = new TreeMap<>();
        for (CanonicalRow r : rows) {
            out.computeIfAbsent(r.get(0) + "/" + r.get(1), k -> new ArrayList<>()).add(r.toString());
        }
        return out;
    }

    @Test
    void paimonReadsOurInputChangelogTableMergedAndItsChangelogInFull() throws Exception {
        ours.createTable(DB, "ours", SPEC);
        for (int i = 0; i < 4; i++) {
            ours.write(DB, "ours", batch(60));
        }
        ours.compactAll(DB, "ours", false);
        ours.write(DB, "ours", batch(60));

        // Batch reads: the merged table, on both sides; changelog files do not leak into them.
        Canon.assertSameRowsIgnoringKind("Paimon's batch read", new ArrayList<>(cdc.live().values()),
                paimon.readAll(DB, "ours"));
        Canon.assertSameRowsIgnoringKind("our batch read", new ArrayList<>(cdc.live().values()), ours.readAll(DB, "ours"));

        // Paimon's streaming view: exactly the input changes, with kinds, in order per key.
        List<CanonicalRow> streamed = paimon.streamUntilLatest(DB, "ours", Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"));
        assertThat(streamed).hasSameSizeAs(changes);
        assertThat(byKey(streamed)).isEqualTo(byKey(changes));
        assertThat(streamed).extracting(CanonicalRow::kind).contains(Kind.UPDATE_BEFORE, Kind.DELETE);
    }

    @Test
    void paimonContinuesOurTableAndEachSideSeesTheOthersChangelog() throws Exception {
        ours.createTable(DB, "t", SPEC);
        ours.write(DB, "t", batch(50));
        paimon.write(DB, "t", batch(50));
        ours.write(DB, "t", batch(50));
        paimon.compactAll(DB, "t", true);
        paimon.write(DB, "t", batch(50));
        ours.write(DB, "t", batch(50));

        Canon.assertSameRowsIgnoringKind("Paimon's batch read", new ArrayList<>(cdc.live().values()), paimon.readAll(DB, "t"));
        Canon.assertSameRowsIgnoringKind("our batch read", new ArrayList<>(cdc.live().values()), ours.readAll(DB, "t"));

        List<CanonicalRow> streamed = paimon.streamUntilLatest(DB, "t", Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"));
        assertThat(byKey(streamed)).as("Paimon's streaming view of both writers' changelog").isEqualTo(byKey(changes));

        // Our reader of the changelog manifests sees Paimon's changelog files as well as ours.
        FileStoreTable table = (FileStoreTable) ours.table(DB, "t");
        dev.streamhouse.storage.types.RowType ourType = table.rowType();
        List<CanonicalRow> ourChangelog = new ArrayList<>();
        for (ChangelogRecords.Change c : ChangelogRecords.read(table)) {
            ourChangelog.add(OurRows.toCanonical(c.value(), ourType));
        }
        assertThat(byKey(ourChangelog)).as("our reading of both writers' changelog").isEqualTo(byKey(changes));
    }
}
