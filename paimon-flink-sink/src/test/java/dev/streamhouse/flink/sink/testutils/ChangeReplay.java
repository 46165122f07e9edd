package dev.streamhouse.flink.sink.testutils;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.table.source.TableScan;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rows of a {@link SinkTables} table, and its changelog replayed from the earliest retained snapshot
 * (for tables whose first snapshots may have expired, unlike {@link Changelogs}).
 */
public final class ChangeReplay {
    private ChangeReplay() {}

    public static List<String> rows(FileStoreTable table) throws java.io.IOException {
        return TestTables.readAll(table).stream().map(r -> r.substring(2)).sorted().toList();
    }

    /**
     * Reads the full earliest retained snapshot, then every later snapshot's changes, and replays them;
     * a lookup changelog must retract exactly the current row of a key and add only to absent keys.
     */
    public static List<String> replayedChangelog(FileStoreTable table, boolean strict, String context)
            throws java.io.IOException {
        Long earliest = table.snapshotManager().earliestSnapshotId();
        Long latest = table.snapshotManager().latestSnapshotId();
        ReadBuilder rb = table.copy(Map.of("scan.mode", "from-snapshot-full", "scan.snapshot-id",
                Long.toString(earliest))).newReadBuilder();
        RowType type = rb.readType();
        StreamTableScan scan = rb.newStreamScan();
        TableRead read = rb.newRead();
        Map<String, GenericRow> replayed = new TreeMap<>();
        boolean primaryKey = !table.schema().primaryKeys().isEmpty();
        for (int plans = 0; ; plans++) {
            assertThat(plans).as("%s: the stream scan catches up with snapshot %s", context, latest)
                    .isLessThanOrEqualTo((int) (latest - earliest) + 3);
            TableScan.Plan plan = scan.plan();
            if (plan.snapshotId() == null) {
                break;
            }
            List<GenericRow> changes = new ArrayList<>();
            for (DataSplit split : plan.splits()) {
                read.createReader(split).forEachRemaining(r -> changes.add(InternalRowUtils.copyToGeneric(r, type)));
            }
            for (GenericRow row : changes) {
                String key = primaryKey ? row.intAt(0) + "/" + row.stringAt(2) : row.toString().substring(2);
                GenericRow current = replayed.get(key);
                String shown = row + " in snapshot " + plan.snapshotId() + " (" + context + ")";
                if (row.rowKind().isRetract()) {
                    if (strict) {
                        assertThat(current).as("retraction of the current row: %s", shown).isNotNull();
                        assertThat(current.longAt(1)).as("retraction of the current row: %s", shown)
                                .isEqualTo(row.longAt(1));
                    }
                    replayed.remove(key);
                } else {
                    if (strict || !primaryKey) {
                        assertThat(current).as("addition to an absent key: %s", shown).isNull();
                    }
                    replayed.put(key, row);
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (GenericRow r : replayed.values()) {
            out.add("(" + r.intAt(0) + ", " + r.longAt(1) + ", " + r.stringAt(2) + ")");
        }
        out.sort(null);
        return out;
    }

}
