package dev.streamhouse.flink.sink.testutils;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.table.source.TableScan;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads a table's whole changelog through the storage's streaming read ({@code scan.mode} =
 * {@code from-snapshot}, {@code scan.snapshot-id} = 1), one snapshot per plan, until it is caught up
 * with the latest snapshot.
 */
public final class Changelogs {
    private Changelogs() {}

    /** One changed row (with its row kind) and the snapshot it came from. */
    public record Change(long snapshotId, GenericRow row) {}

    public static List<Change> readFromFirstSnapshot(FileStoreTable table) throws IOException {
        Long earliest = table.snapshotManager().earliestSnapshotId();
        Long latest = table.snapshotManager().latestSnapshotId();
        assertThat(earliest).as("the table has snapshot 1 (nothing expired)").isEqualTo(1L);
        ReadBuilder rb = table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")).newReadBuilder();
        RowType type = rb.readType();
        StreamTableScan scan = rb.newStreamScan();
        TableRead read = rb.newRead();
        List<Change> out = new ArrayList<>();
        List<Long> planned = new ArrayList<>();
        for (int plans = 0; ; plans++) {
            if (plans > latest + 2) {
                throw new AssertionError("The stream scan of " + table.fullName() + " planned " + plans
                        + " times without catching up with snapshot " + latest + "; snapshots planned: " + planned);
            }
            TableScan.Plan plan = scan.plan();
            if (plan.snapshotId() == null) {
                break;
            }
            planned.add(plan.snapshotId());
            for (DataSplit split : plan.splits()) {
                assertThat(split.delta()).as("split of snapshot %s is a delta split", plan.snapshotId()).isTrue();
                read.createReader(split).forEachRemaining(r ->
                        out.add(new Change(plan.snapshotId(), InternalRowUtils.copyToGeneric(r, type))));
            }
        }
        List<Long> all = new ArrayList<>();
        for (long id = earliest; id <= latest; id++) {
            all.add(id);
        }
        assertThat(planned).as("the stream scan consumed every snapshot once, in order").isEqualTo(all);
        return out;
    }

    /**
     * Asserts that no (commit user, commit identifier, commit kind) appears in two snapshots: a job
     * that committed a checkpoint twice would show it.
     */
    public static void assertNoCommitIdentifierTwice(FileStoreTable table) {
        Map<String, Long> seen = new HashMap<>();
        for (Snapshot s : SinkTables.snapshots(table)) {
            String key = s.commitUser() + "/" + s.commitIdentifier() + "/" + s.commitKind();
            Long previous = seen.putIfAbsent(key, s.id());
            assertThat(previous).as("snapshot %s repeats the commit %s of snapshot %s", s.id(), key, previous)
                    .isNull();
        }
    }
}
