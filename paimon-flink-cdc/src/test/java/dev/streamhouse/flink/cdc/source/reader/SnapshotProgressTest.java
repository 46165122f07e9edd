package dev.streamhouse.flink.cdc.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

class SnapshotProgressTest {

    /** Records the metrics registered in a sub-group. */
    private static final class Recording extends UnregisteredMetricsGroup {
        final Map<String, Metric> metrics = new HashMap<>();

        @Override
        public Counter counter(String name) {
            Counter c = super.counter(name);
            metrics.put(name, c);
            return c;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            metrics.put(name, gauge);
            return gauge;
        }

        @Override
        public MetricGroup addGroup(String name) {
            return this;
        }
    }

    @Test
    void countsRowsAndTablesAndReportsTheEnd() {
        Recording group = new Recording();
        SnapshotProgress progress = new SnapshotProgress("host:3306", group);
        CdcTableId a = new CdcTableId("db", "a");
        CdcTableId b = new CdcTableId("db", "b");
        progress.row(a);
        progress.row(a);
        progress.row(b);
        assertThat(((Counter) group.metrics.get("snapshotRows")).getCount()).isEqualTo(3);
        assertThat(((Gauge<?>) group.metrics.get("snapshotTablesDone")).getValue()).isEqualTo(1);
        assertThat(((Gauge<?>) group.metrics.get("snapshotFinished")).getValue()).isEqualTo(0);
        progress.finished();
        assertThat(((Gauge<?>) group.metrics.get("snapshotTablesDone")).getValue()).isEqualTo(2);
        assertThat(((Gauge<?>) group.metrics.get("snapshotFinished")).getValue()).isEqualTo(1);
    }
}
