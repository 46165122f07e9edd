package dev.streamhouse.flink.cdc.testing;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.table.source.TableScan;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.RowType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checks of a sync's failover tests, whatever its source: a workload of {@code changes} changes to
 * {@code keys} keys of a table {@code (id INT, v INT)} (change i goes to key i % keys; it deletes a
 * present key when i % 11 == 0, else updates it to v = i, or inserts it), the newest retained
 * checkpoint to restart from, and the table's input changelog read back, which must hold every
 * change exactly once, in order per key.
 */
public final class SyncFailoverChecks {
    private SyncFailoverChecks() {}

    /** One change of the workload. */
    public enum Change { INSERT, UPDATE, DELETE }

    /** What change {@code i} does, given the keys present before it (which it updates). */
    public static Change change(int i, int keys, Map<Integer, Integer> present) {
        int k = i % keys;
        Change c = !present.containsKey(k) ? Change.INSERT : i % 11 == 0 ? Change.DELETE : Change.UPDATE;
        if (c == Change.DELETE) {
            present.remove(k);
        } else {
            present.put(k, i);
        }
        return c;
    }

    /** The rows after the workload, from the single row (0, 0). */
    public static Map<Integer, Integer> finalRows(int changes, int keys) {
        Map<Integer, Integer> present = new HashMap<>(Map.of(0, 0));
        for (int i = 1; i <= changes; i++) {
            change(i, keys, present);
        }
        return present;
    }

    /** The inserts and updates of the workload (the row (0, 0) counted), each of which the changelog holds once. */
    public static int insertsAndUpdates(int changes, int keys) {
        Map<Integer, Integer> present = new HashMap<>(Map.of(0, 0));
        int count = 1;
        for (int i = 1; i <= changes; i++) {
            if (change(i, keys, present) != Change.DELETE) {
                count++;
            }
        }
        return count;
    }

    /** The newest completed checkpoint under {@code checkpoints} (a directory with _metadata). */
    public static String latestCheckpoint(Path checkpoints) throws Exception {
        try (Stream<Path> walk = Files.walk(checkpoints)) {
            return walk.filter(p -> p.getFileName().toString().equals("_metadata"))
                    .map(Path::getParent)
                    .max(Comparator.comparingLong(p -> Long.parseLong(p.getFileName().toString().substring(4))))
                    .map(p -> p.toUri().toString())
                    .orElseThrow(() -> new AssertionError("no completed checkpoint under " + checkpoints));
        }
    }

    public static long latestSnapshot(Table table) {
        return table.latestSnapshot().map(s -> s.id()).orElse(0L);
    }

    /** The table's rows as {@code (id, v)}, by id. */
    public static List<String> values(Table table) throws Exception {
        List<String> out = new ArrayList<>();
        for (String row : TestTables.readAll(table)) {
            out.add(row.substring(row.indexOf('(')));
        }
        out.sort(Comparator.comparingInt(s -> Integer.parseInt(s.substring(1, s.indexOf(',')))));
        return out;
    }

    /** The rows of {@code model} as {@link #values} prints them. */
    public static List<String> expected(Map<Integer, Integer> model) {
        List<String> expected = new ArrayList<>();
        new TreeMap<>(model).forEach((k, v) -> expected.add("(" + k + ", " + v + ")"));
        return expected;
    }

    /**
     * Asserts that the input changelog holds, per key, each value once and growing, retractions only of
     * the value before, ends at {@code model}, and has {@code insertsAndUpdates} inserts and updates.
     */
    public static void assertChangelogExact(Table table, Map<Integer, Integer> model, int insertsAndUpdates)
            throws Exception {
        Map<Integer, Integer> state = new HashMap<>();
        int changes = 0;
        for (GenericRow r : changelog(table)) {
            int k = r.intAt(0);
            int v = r.intAt(1);
            Integer before = state.get(k);
            if (r.rowKind() == RowKind.INSERT || r.rowKind() == RowKind.UPDATE_AFTER) {
                assertThat(before).as("key %s gets %s while it holds %s (%s)", k, v, before, r.rowKind()).isNull();
                state.put(k, v);
                changes++;
            } else {
                assertThat(before).as("key %s retracts %s (%s)", k, v, r.rowKind()).isEqualTo(v);
                state.remove(k);
            }
        }
        assertThat(new TreeMap<>(state)).isEqualTo(new TreeMap<>(model));
        assertThat(changes).as("inserts and updates in the changelog, each once").isEqualTo(insertsAndUpdates);
    }

    /** The whole changelog from snapshot 1, snapshot by snapshot, through the storage's streaming read. */
    private static List<GenericRow> changelog(Table table) throws Exception {
        long latest = latestSnapshot(table);
        ReadBuilder rb = table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")).newReadBuilder();
        RowType type = rb.readType();
        StreamTableScan scan = rb.newStreamScan();
        TableRead read = rb.newRead();
        List<GenericRow> out = new ArrayList<>();
        for (int plans = 0; plans <= latest + 2; plans++) {
            TableScan.Plan plan = scan.plan();
            if (plan.snapshotId() == null) {
                return out;
            }
            for (DataSplit split : plan.splits()) {
                read.createReader(split).forEachRemaining(r -> out.add(InternalRowUtils.copyToGeneric(r, type)));
            }
        }
        throw new AssertionError("The stream scan did not catch up with snapshot " + latest);
    }
}
