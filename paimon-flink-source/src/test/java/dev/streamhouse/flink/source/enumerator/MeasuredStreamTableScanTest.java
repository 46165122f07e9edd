package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.common.metrics.ScanMetrics;
import dev.streamhouse.flink.common.metrics.TableMetricGroup;
import dev.streamhouse.flink.source.testutils.SourceTestTables;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.source.TableScan;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A streaming read's scan metrics: what each planning read, and how far behind the latest snapshot it is. */
class MeasuredStreamTableScanTest {
    @TempDir
    Path tmp;

    /** Keeps the gauges registered on it (and on its subgroups) by name. */
    private static final class Gauges extends UnregisteredMetricsGroup {
        final Map<String, Gauge<?>> byName = new HashMap<>();

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            byName.put(name, gauge);
            return gauge;
        }

        @Override
        public MetricGroup addGroup(String name) {
            return this;
        }

        @Override
        public MetricGroup addGroup(String key, String value) {
            return this;
        }

        long value(String name) {
            return ((Number) byName.get(name).getValue()).longValue();
        }
    }

    @Test
    void reportsEachPlanningAndTheSnapshotsLeftToRead() throws Exception {
        FileStoreTable table = SourceTestTables.primaryKeyTable(tmp, "bucket", "1");
        for (int i = 1; i <= 3; i++) {
            SourceTestTables.writePk(table, i, List.of(SourceTestTables.pkRow(RowKind.INSERT, i, i, "r" + i)));
        }
        Table fromFirst = table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"));
        Gauges gauges = new Gauges();
        TableMetricGroup group = TableMetricGroup.of(gauges, table.fullName());
        ScanMetrics metrics = new ScanMetrics(group).withFreshness(group);
        MeasuredStreamTableScan scan = new MeasuredStreamTableScan(
                fromFirst.newReadBuilder().withScanListener(metrics).newStreamScan(), fromFirst, metrics);

        TableScan.Plan first = scan.plan();
        assertThat(first.snapshotId()).isEqualTo(1L);
        assertThat(gauges.value("lastScannedSnapshotId")).isEqualTo(1L);
        assertThat(gauges.value("lastScanResultedTableFiles")).isEqualTo(first.splits().get(0).files().size());
        assertThat(gauges.value("lastScannedManifests")).isEqualTo(1L);
        scan.probeFreshness();
        assertThat(gauges.value("snapshotsBehindLatest")).as("snapshots 2 and 3 wait").isEqualTo(2L);
        long waitedAtLeast = System.currentTimeMillis() - table.snapshot(2).orElseThrow().timeMillis();
        assertThat(gauges.value("unreadSnapshotAge")).isBetween(0L, waitedAtLeast);

        scan.plan();
        scan.plan();
        assertThat(gauges.value("lastScannedSnapshotId")).isEqualTo(3L);
        scan.probeFreshness();
        assertThat(gauges.value("snapshotsBehindLatest")).isZero();
        assertThat(scan.plan().snapshotId()).as("no snapshot 4 yet").isNull();
        assertThat(gauges.value("snapshotsBehindLatest")).isZero();
        assertThat(gauges.value("unreadSnapshotAge")).isZero();
    }
}
