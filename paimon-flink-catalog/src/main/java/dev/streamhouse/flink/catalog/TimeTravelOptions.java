package dev.streamhouse.flink.catalog;

/**
 * Keys of the table options that pick the snapshot a query reads, as Paimon names them. The catalog
 * sets {@link #SCAN_TIMESTAMP_MILLIS} for {@code FOR SYSTEM_TIME AS OF}; system tables honour both.
 */
public final class TimeTravelOptions {
    /** Read this snapshot id. */
    public static final String SCAN_SNAPSHOT_ID = "scan.snapshot-id";
    /** Read the newest snapshot committed at or before this epoch millisecond. */
    public static final String SCAN_TIMESTAMP_MILLIS = "scan.timestamp-millis";

    private TimeTravelOptions() {}
}
