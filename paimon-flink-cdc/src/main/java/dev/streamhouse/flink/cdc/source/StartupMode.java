package dev.streamhouse.flink.cdc.source;

import java.util.Locale;

/** Where a MySQL CDC source starts reading ({@code scan.startup.mode}). */
public enum StartupMode {
    /** Snapshot the captured tables, then read the binlog from the snapshot's position. */
    INITIAL("initial"),
    /** No snapshot: read the binlog from its current end. */
    LATEST_OFFSET("latest-offset"),
    /** No snapshot: read the binlog from the oldest file the server still has. */
    EARLIEST_OFFSET("earliest-offset"),
    /** No snapshot: read the binlog from a given file and position, or a GTID set. */
    SPECIFIC_OFFSET("specific-offset"),
    /** No snapshot: read the binlog changes made at or after a given time. */
    TIMESTAMP("timestamp");

    private final String value;

    StartupMode(String value) {
        this.value = value;
    }

    /** The option value, e.g. {@code latest-offset}. */
    public String value() {
        return value;
    }

    /** Parses an option value; fails naming the option and the allowed values. */
    public static StartupMode fromValue(String value) {
        for (StartupMode mode : values()) {
            if (mode.value.equals(value.trim().toLowerCase(Locale.ROOT))) {
                return mode;
            }
        }
        throw new IllegalArgumentException("Invalid value '" + value + "' for option 'scan.startup.mode': "
                + "expected one of initial, latest-offset, earliest-offset, specific-offset, timestamp");
    }
}
