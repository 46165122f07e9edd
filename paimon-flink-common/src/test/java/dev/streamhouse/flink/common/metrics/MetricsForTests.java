package dev.streamhouse.flink.common.metrics;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Flink metric reporter kept in memory, for tests: every metric by its full identifier while it is
 * registered, and the last value of each gauge and the count of each histogram when it was removed
 * (a finished job's metrics can still be read). Add it to a cluster's configuration with
 * {@link #configure}.
 */
public final class MetricsForTests implements MetricReporter {
    private static final Map<String, Metric> LIVE = new ConcurrentHashMap<>();
    private static final Map<String, Object> REMOVED = new ConcurrentHashMap<>();

    /** Reports every metric of the cluster to this reporter. */
    public static Configuration configure(Configuration conf) {
        conf.setString("metrics.reporter.tests.factory.class", Factory.class.getName());
        return conf;
    }

    public static void clear() {
        LIVE.clear();
        REMOVED.clear();
    }

    /** The value of each gauge (its count for a histogram) whose identifier contains {@code part}. */
    public static Map<String, Object> values(String part) {
        Map<String, Object> out = new TreeMap<>();
        REMOVED.forEach((id, v) -> {
            if (id.contains(part)) {
                out.put(id, v);
            }
        });
        LIVE.forEach((id, m) -> {
            if (id.contains(part)) {
                out.put(id, value(m));
            }
        });
        return out;
    }

    private static Object value(Metric m) {
        if (m instanceof Gauge<?> g) {
            return g.getValue();
        }
        if (m instanceof Histogram h) {
            return h.getCount();
        }
        if (m instanceof Counter c) {
            return c.getCount();
        }
        return m.toString();
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
        LIVE.put(group.getMetricIdentifier(name), metric);
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
        String id = group.getMetricIdentifier(name);
        REMOVED.put(id, value(metric));
        LIVE.remove(id);
    }

    /** Creates the reporter. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new MetricsForTests();
        }
    }
}
