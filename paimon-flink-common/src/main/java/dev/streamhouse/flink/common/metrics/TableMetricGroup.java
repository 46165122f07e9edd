package dev.streamhouse.flink.common.metrics;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The metrics of one table in one operator: {@code <operator>.paimon.table.<table>.<group>}, where
 * {@link TableMetric}s are registered by their declaration, so a name is never spelled twice.
 */
public final class TableMetricGroup {
    private final MetricGroup table;
    private final Map<TableMetric.Group, MetricGroup> groups = new EnumMap<>(TableMetric.Group.class);

    private TableMetricGroup(MetricGroup table) {
        this.table = table;
    }

    /**
     * @param operator the operator's metric group
     * @param tableFullName the table's {@code database.table}; the group is named by the table alone, as
     *     Paimon names it
     */
    public static TableMetricGroup of(MetricGroup operator, String tableFullName) {
        String name = tableFullName.substring(tableFullName.indexOf('.') + 1);
        return new TableMetricGroup(operator.addGroup("paimon").addGroup("table", name));
    }

    private MetricGroup group(TableMetric metric) {
        return groups.computeIfAbsent(metric.group(), g -> table.addGroup(g.groupName()));
    }

    /** Registers gauge {@code metric} reading {@code value}. */
    public <T> void gauge(TableMetric metric, Supplier<T> value) {
        check(metric, TableMetric.Kind.GAUGE);
        group(metric).gauge(metric.metricName(), (Gauge<T>) value::get);
    }

    /** Registers counter {@code metric} reading {@code count} (the counter cannot be changed through Flink). */
    public void counter(TableMetric metric, java.util.function.LongSupplier count) {
        check(metric, TableMetric.Kind.COUNTER);
        group(metric).counter(metric.metricName(), new org.apache.flink.metrics.Counter() {
            @Override
            public void inc() {
                throw new UnsupportedOperationException(metric.metricName() + " is read-only");
            }

            @Override
            public void inc(long n) {
                throw new UnsupportedOperationException(metric.metricName() + " is read-only");
            }

            @Override
            public void dec() {
                throw new UnsupportedOperationException(metric.metricName() + " is read-only");
            }

            @Override
            public void dec(long n) {
                throw new UnsupportedOperationException(metric.metricName() + " is read-only");
            }

            @Override
            public long getCount() {
                return count.getAsLong();
            }
        });
    }

        /** Registers histogram {@code metric} over the last {@link WindowHistogram#DEFAULT_WINDOW} values. */
    public Histogram histogram(TableMetric metric) {
        check(metric, TableMetric.Kind.HISTOGRAM);
        return group(metric).histogram(metric.metricName(), new WindowHistogram(WindowHistogram.DEFAULT_WINDOW));
    }

    private static void check(TableMetric metric, TableMetric.Kind kind) {
        if (metric.kind() != kind) {
            throw new IllegalArgumentException("Metric " + metric.metricName() + " is a " + metric.kind() + ", not a "
                    + kind);
        }
    }
}
