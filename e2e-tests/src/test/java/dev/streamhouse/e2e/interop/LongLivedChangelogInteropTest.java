package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CdcModel;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.maintenance.expire.TableExpiration;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import org.apache.paimon.table.DataTable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Long-lived changelog ({@code changelog/changelog-<id>}, docs/format.md §10.3) and Apache Paimon 1.3.1, on a
 * {@code changelog-producer = input} table keeping 2 snapshots but the changelog of 20: Paimon's
 * {@code ChangelogManager} lists the changelog entries our expiration wrote and Paimon's streaming read
 * from snapshot 1 reads every change through them; the entries Paimon's expiration writes are read by
 * our streaming read, and our changelog expiration of them leaves the table readable for Paimon.
 */
class LongLivedChangelogInteropTest extends InteropTestBase {
    private static final String DB = "llc";
    private static final TableSpec SPEC = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING", "amount", "BIGINT")
            .withPartitionKeys("dt").withPrimaryKeys("dt", "id")
            .withOption("bucket", "2").withOption("changelog-producer", "input")
            .withOption("snapshot.num-retained.min", "1").withOption("snapshot.num-retained.max", "2")
            .withOption("changelog.num-retained.max", "20");

    private final CdcModel cdc = new CdcModel(17, 20);
    private final List<CanonicalRow> changes = new ArrayList<>();

    LongLivedChangelogInteropTest() {
        super(DB);
    }

    private List<CanonicalRow> batch(int size) {
        List<CanonicalRow> rows = cdc.batch(size);
        changes.addAll(rows);
        return rows;
    }

    private static Map<String, List<String>> byKey(List<CanonicalRow> rows) {
        Map<String, List<String>> out = new TreeMap<>();
        for (CanonicalRow r : rows) {
            out.computeIfAbsent(r.get(0) + "/" + r.get(1), k -> new ArrayList<>()).add(r.toString());
        }
        return out;
    }

    private static List<CanonicalRow> flatten(List<List<CanonicalRow>> plans) {
        List<CanonicalRow> out = new ArrayList<>();
        plans.forEach(out::addAll);
        return out;
    }

    private static final Map<String, String> FROM_ONE = Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1");

    @Test
    void paimonListsOurChangelogEntriesAndStreamsEveryChangeThroughThem() throws Exception {
        ours.createTable(DB, "t", SPEC);
        for (int i = 0; i < 6; i++) {
            ours.write(DB, "t", batch(30));
        }
        DataTable theirs = (DataTable) paimon.table(DB, "t");
        long latest = theirs.snapshotManager().latestSnapshotId();
        assertThat(theirs.snapshotManager().earliestSnapshotId()).isEqualTo(latest - 1);
        assertThat(theirs.changelogManager().earliestLongLivedChangelogId()).isEqualTo(1L);
        assertThat(theirs.changelogManager().latestLongLivedChangelogId()).isEqualTo(latest - 2);
        for (long id = 1; id <= latest - 2; id++) {
            assertThat(theirs.changelogManager().longLivedChangelog(id).id()).isEqualTo(id);
        }

        List<CanonicalRow> streamed = paimon.streamUntilLatest(DB, "t", FROM_ONE);
        assertThat(byKey(streamed)).as("Paimon streaming our table through our changelog entries")
                .isEqualTo(byKey(changes));
        assertThat(byKey(flatten(ours.streamPlansUntilLatest(DB, "t", FROM_ONE)))).isEqualTo(byKey(changes));
        Canon.assertSameRowsIgnoringKind("Paimon's batch read", new ArrayList<>(cdc.live().values()),
                paimon.readAll(DB, "t"));
    }

    @Test
    void weStreamThroughPaimonsChangelogEntriesAndExpireThem() throws Exception {
        ours.createTable(DB, "p", SPEC);
        for (int i = 0; i < 6; i++) {
            paimon.write(DB, "p", batch(30));
        }
        ChangelogManager changelogs = new ChangelogManager(
                ((dev.streamhouse.storage.table.FileStoreTable) ours.table(DB, "p")).fileIO(),
                ((dev.streamhouse.storage.table.FileStoreTable) ours.table(DB, "p")).location());
        long latest = ours.table(DB, "p").latestSnapshot().orElseThrow().id();
        assertThat(changelogs.listChangelogIds()).as("Paimon kept the changelog of its expired snapshots")
                .isNotEmpty();
        assertThat(changelogs.earliestChangelogId()).isEqualTo(1L);

        assertThat(byKey(flatten(ours.streamPlansUntilLatest(DB, "p", FROM_ONE))))
                .as("us streaming Paimon's table through its changelog entries").isEqualTo(byKey(changes));

        // Our changelog expiration of Paimon's entries (keep the newest 3, counting snapshots).
        int expired = TableExpiration.forTable(ours.table(DB, "p")).retainMax(3).expireChangelogs();
        assertThat(expired).isEqualTo((int) latest - 3);
        assertThat(changelogs.listChangelogIds()).containsExactly(latest - 2);
        DataTable theirs = (DataTable) paimon.table(DB, "p");
        assertThat(theirs.changelogManager().earliestLongLivedChangelogId()).isEqualTo(latest - 2);
        Canon.assertSameRowsIgnoringKind("Paimon after our changelog expiration",
                new ArrayList<>(cdc.live().values()), paimon.readAll(DB, "p"));
        Canon.assertSameRowsIgnoringKind("us after our changelog expiration",
                new ArrayList<>(cdc.live().values()), ours.readAll(DB, "p"));
        assertThat(paimon.streamUntilLatest(DB, "p",
                Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", Long.toString(latest - 2))))
                .as("Paimon streaming from the changelog we kept").isNotEmpty();
    }
}
