package dev.streamhouse.flink.cdc.source;

import java.io.Serializable;
import java.util.Objects;

/**
 * The start of a MySQL CDC source: the mode and, for {@link StartupMode#SPECIFIC_OFFSET}, a binlog
 * file and position or a GTID set, for {@link StartupMode#TIMESTAMP} the time in epoch milliseconds.
 */
public final class StartupOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    private final StartupMode mode;
    private final String binlogFile;
    private final long binlogPosition;
    private final String gtidSet;
    private final long timestampMillis;

    private StartupOptions(StartupMode mode, String binlogFile, long binlogPosition, String gtidSet,
            long timestampMillis) {
        this.mode = mode;
        this.binlogFile = binlogFile;
        this.binlogPosition = binlogPosition;
        this.gtidSet = gtidSet;
        this.timestampMillis = timestampMillis;
    }

    public static StartupOptions initial() {
        return new StartupOptions(StartupMode.INITIAL, null, -1, null, -1);
    }

    public static StartupOptions latest() {
        return new StartupOptions(StartupMode.LATEST_OFFSET, null, -1, null, -1);
    }

    public static StartupOptions earliest() {
        return new StartupOptions(StartupMode.EARLIEST_OFFSET, null, -1, null, -1);
    }

    /** From a binlog file and position. */
    public static StartupOptions specificOffset(String binlogFile, long position) {
        if (binlogFile == null || binlogFile.isBlank() || position < 0) {
            throw new IllegalArgumentException("scan.startup.mode 'specific-offset' needs "
                    + "'scan.startup.specific-offset.file' and a non-negative 'scan.startup.specific-offset.pos' "
                    + "(or 'scan.startup.specific-offset.gtid-set'); got file '" + binlogFile + "', pos " + position);
        }
        return new StartupOptions(StartupMode.SPECIFIC_OFFSET, binlogFile, position, null, -1);
    }

    /** From a GTID set: the changes after the transactions it names. */
    public static StartupOptions specificGtidSet(String gtidSet) {
        if (gtidSet == null || gtidSet.isBlank()) {
            throw new IllegalArgumentException("'scan.startup.specific-offset.gtid-set' must not be empty");
        }
        return new StartupOptions(StartupMode.SPECIFIC_OFFSET, null, -1, gtidSet.trim(), -1);
    }

    public static StartupOptions timestamp(long timestampMillis) {
        if (timestampMillis < 0) {
            throw new IllegalArgumentException("scan.startup.mode 'timestamp' needs a non-negative "
                    + "'scan.startup.timestamp-millis', got " + timestampMillis);
        }
        return new StartupOptions(StartupMode.TIMESTAMP, null, -1, null, timestampMillis);
    }

    public StartupMode mode() {
        return mode;
    }

    /** The binlog file of a specific offset; null otherwise. */
    public String binlogFile() {
        return binlogFile;
    }

    public long binlogPosition() {
        return binlogPosition;
    }

    /** The GTID set of a specific offset; null otherwise. */
    public String gtidSet() {
        return gtidSet;
    }

    public long timestampMillis() {
        return timestampMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StartupOptions other && mode == other.mode && binlogPosition == other.binlogPosition
                && timestampMillis == other.timestampMillis && Objects.equals(binlogFile, other.binlogFile)
                && Objects.equals(gtidSet, other.gtidSet);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, binlogFile, binlogPosition, gtidSet, timestampMillis);
    }

    @Override
    public String toString() {
        return switch (mode) {
            case SPECIFIC_OFFSET -> gtidSet != null ? "specific-offset gtid-set " + gtidSet
                    : "specific-offset " + binlogFile + ":" + binlogPosition;
            case TIMESTAMP -> "timestamp " + timestampMillis;
            default -> mode.value();
        };
    }
}
