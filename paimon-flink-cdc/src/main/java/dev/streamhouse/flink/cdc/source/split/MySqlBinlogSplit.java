package dev.streamhouse.flink.cdc.source.split;

import dev.streamhouse.flink.cdc.debezium.HistoryRecords;
import java.util.List;
import java.util.Objects;

/**
 * The one split of a MySQL CDC source: the binlog of the server, read by one connector. It carries
 * where to resume (a Debezium source offset as JSON; null before the first record of a snapshot
 * start) and Debezium's schema history up to there, so a restore from a checkpoint resumes exactly
 * where the emitted records end. {@code snapshotPending} marks a split that still has to snapshot
 * the tables' data; {@code skipBeforeMillis} drops binlog changes older than a {@code timestamp}
 * start (0 keeps all). After a chunked snapshot the split carries its {@link SnapshotWindow}, by
 * which the reader skips changes the chunks already hold, until it has read past the window.
 */
public final class MySqlBinlogSplit implements MySqlSplit {

    public static final String ID = "mysql-binlog";

    private final String offsetJson;
    private final List<String> history;
    private final boolean snapshotPending;
    private final long skipBeforeMillis;
    private final SnapshotWindow window;
    private transient HistoryRecords historyRecords;

    public MySqlBinlogSplit(String offsetJson, List<String> history, boolean snapshotPending, long skipBeforeMillis) {
        this(offsetJson, history, snapshotPending, skipBeforeMillis, null);
    }

    public MySqlBinlogSplit(String offsetJson, List<String> history, boolean snapshotPending, long skipBeforeMillis,
            SnapshotWindow window) {
        this.offsetJson = offsetJson;
        this.window = window;
        this.history = List.copyOf(history);
        this.snapshotPending = snapshotPending;
        this.skipBeforeMillis = skipBeforeMillis;
        if (offsetJson == null && !snapshotPending) {
            throw new IllegalArgumentException("A MySQL binlog split needs an offset unless it starts with a snapshot");
        }
    }

    @Override
    public String splitId() {
        return ID;
    }

    public String offsetJson() {
        return offsetJson;
    }

    public List<String> history() {
        return history;
    }

    public boolean snapshotPending() {
        return snapshotPending;
    }

    public long skipBeforeMillis() {
        return skipBeforeMillis;
    }

    /** The chunked snapshot whose changes the split skips; null when there is none, or it was read past. */
    public SnapshotWindow window() {
        return window;
    }

    /**
     * The live history the reader's connector appends to, shared by the split's state and its
     * reader (both get this instance when the split is added to a source reader).
     */
    public synchronized HistoryRecords historyRecords() {
        if (historyRecords == null) {
            historyRecords = new HistoryRecords(history);
        }
        return historyRecords;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MySqlBinlogSplit other && Objects.equals(offsetJson, other.offsetJson)
                && history.equals(other.history) && snapshotPending == other.snapshotPending
                && skipBeforeMillis == other.skipBeforeMillis && Objects.equals(window, other.window);
    }

    @Override
    public int hashCode() {
        return Objects.hash(offsetJson, history, snapshotPending, skipBeforeMillis, window);
    }

    @Override
    public String toString() {
        return "MySqlBinlogSplit{offset=" + offsetJson + ", history=" + history.size() + " records"
                + (snapshotPending ? ", snapshot pending" : "") + (window == null ? "" : ", " + window) + "}";
    }
}
