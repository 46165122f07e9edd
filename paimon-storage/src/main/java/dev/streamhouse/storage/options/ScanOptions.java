package dev.streamhouse.storage.options;

/**
 * Where a read starts and which snapshots it covers, usually set as dynamic table options
 * ({@code Table.copy}, e.g. from a SQL {@code OPTIONS} hint or {@code FOR SYSTEM_TIME AS OF}).
 *
 * <p>Batch reads ({@code ReadBuilder.newScan()}) read the snapshot chosen by {@code scan.snapshot-id}
 * or {@code scan.timestamp-millis} (at most one of them; {@code ReadBuilder.withSnapshot} /
 * {@code withTimestampMillis} override both), or the changes of {@code incremental-between}.
 * Streaming reads ({@code ReadBuilder.newStreamScan()}) start as {@code scan.mode} says.
 */
public final class ScanOptions {
    private ScanOptions() {}

    /** Where a streaming read starts (Paimon's {@code scan.mode} values). */
    public enum StartupMode {
        /**
         * {@code from-timestamp} if {@code scan.timestamp-millis} is set, {@code from-snapshot} if
         * {@code scan.snapshot-id} is set, else {@code latest-full}.
         */
        DEFAULT("default"),
        /** The latest snapshot in full (as inserts), then the changes of every later snapshot. */
        LATEST_FULL("latest-full"),
        /** Deprecated alias of {@code latest-full}. */
        FULL("full"),
        /** Only the changes committed after the read started. */
        LATEST("latest"),
        /**
         * The latest COMPACT snapshot in full (the latest snapshot when none was compacted), then the
         * changes after it.
         */
        COMPACTED_FULL("compacted-full"),
        /** The changes of every snapshot committed at or after {@code scan.timestamp-millis}. */
        FROM_TIMESTAMP("from-timestamp"),
        /** The changes of snapshot {@code scan.snapshot-id} and every later one. */
        FROM_SNAPSHOT("from-snapshot"),
        /** Snapshot {@code scan.snapshot-id} in full, then the changes of every later snapshot. */
        FROM_SNAPSHOT_FULL("from-snapshot-full");

        private final String value;

        StartupMode(String value) {
            this.value = value;
        }

        @Override
        public String toString() {
            return value;
        }
    }

    public static final ConfigOption<StartupMode> SCAN_MODE =
            ConfigOption.key("scan.mode").enumType(StartupMode.class).defaultValue(StartupMode.DEFAULT)
                    .withDescription("Where a streaming read starts: default, latest-full, full, latest, "
                            + "compacted-full, from-timestamp, from-snapshot or from-snapshot-full.");

    public static final ConfigOption<Long> SCAN_SNAPSHOT_ID =
            ConfigOption.key("scan.snapshot-id").longType().noDefaultValue()
                    .withDescription("Batch: read this snapshot instead of the latest. Streaming: the snapshot "
                            + "from-snapshot / from-snapshot-full start at.");

    public static final ConfigOption<Long> SCAN_TIMESTAMP_MILLIS =
            ConfigOption.key("scan.timestamp-millis").longType().noDefaultValue()
                    .withDescription("Batch: read the latest snapshot committed at or before this time (epoch "
                            + "millis); fails if every snapshot is younger. Streaming (from-timestamp): read the "
                            + "changes of the snapshots committed at or after it.");

    /** Values of {@code incremental-between-scan-mode}: which files an incremental read takes its changes from. */
    public enum IncrementalBetweenScanMode {
        /** {@code delta} for append tables and {@code changelog-producer = none}, else {@code changelog}. */
        AUTO("auto"),
        /** The new data files of APPEND snapshots. */
        DELTA("delta"),
        /** The changelog files of APPEND and COMPACT snapshots. */
        CHANGELOG("changelog"),
        /** The difference between the start and end snapshots (not supported here). */
        DIFF("diff");

        private final String value;

        IncrementalBetweenScanMode(String value) {
            this.value = value;
        }

        @Override
        public String toString() {
            return value;
        }
    }

    public static final ConfigOption<String> INCREMENTAL_BETWEEN =
            ConfigOption.key("incremental-between").stringType().noDefaultValue()
                    .withDescription("Batch read of the changes between two snapshots 'start,end' (start "
                            + "exclusive, end inclusive), as Apache Paimon 1.3 reads them: the rows snapshots "
                            + "start+1..end wrote (see 'incremental-between-scan-mode'), not merged, with their "
                            + "row kinds (-U/-D included). OVERWRITE snapshots are skipped. Only snapshot ids are "
                            + "supported, not tag names.");

    public static final ConfigOption<IncrementalBetweenScanMode> INCREMENTAL_BETWEEN_SCAN_MODE =
            ConfigOption.key("incremental-between-scan-mode").enumType(IncrementalBetweenScanMode.class)
                    .defaultValue(IncrementalBetweenScanMode.AUTO)
                    .withDescription("Which files 'incremental-between' reads: 'auto' (the default: 'delta' for "
                            + "append tables and changelog-producer none, else 'changelog'), 'delta' (new data "
                            + "files of APPEND snapshots) or 'changelog' (changelog files of APPEND and COMPACT "
                            + "snapshots). 'diff' is not supported.");
}
