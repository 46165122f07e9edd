package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.split.PaimonSplit;
import org.apache.flink.metrics.MetricGroup;

/**
 * FLIP-33's {@code currentFetchEventTimeLag} of a source reader, as Apache Paimon defines it for its
 * source: when the reader started reading its latest split minus when the oldest file of that split
 * was written (-1 before a split whose files record their creation time). Set in the fetcher thread,
 * read by reporters.
 */
public final class FetchLag {
    /** Flink's standard name (FLIP-33). */
    public static final String METRIC_NAME = "currentFetchEventTimeLag";
    static final long UNDEFINED = -1;

    private volatile long lag = UNDEFINED;

    /** Registers the gauge on the reader's metric group. */
    public static FetchLag register(MetricGroup readerGroup) {
        FetchLag lag = new FetchLag();
        readerGroup.gauge(METRIC_NAME, () -> lag.lag);
        return lag;
    }

    /** Without a metric group (e.g. a split reader used alone). */
    public static FetchLag unregistered() {
        return new FetchLag();
    }

    void splitOpened(PaimonSplit split) {
        java.util.OptionalLong created = split.dataSplit().earliestFileCreationEpochMillis();
        if (created.isPresent()) {
            lag = System.currentTimeMillis() - created.getAsLong();
        }
    }

    long value() {
        return lag;
    }
}
