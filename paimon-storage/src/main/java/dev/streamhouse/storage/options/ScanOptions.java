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
        FROM_SNAPSHOT_FULL("from-snapshot-full"),
        /** By {@code scan.creation-time-millis} (not supported yet). */
        FROM_CREATION_TIMESTAMP("from-creation-timestamp"),
        /** Files created after {@code scan.file-creation-time-millis} (not supported yet). */
        FROM_FILE_CREATION_TIME("from-file-creation-time"),
        /**
         * Batch only: the changes that exactly one of {@code incremental-between},
         * {@code incremental-between-timestamp} or {@code incremental-to-auto-tag} names.
         */
        INCREMENTAL("incremental");

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
                    .withDescription("Where a streaming read starts and which snapshot a batch read reads: "
                            + "default, latest-full, full, latest, compacted-full, from-timestamp, from-snapshot or "
                            + "from-snapshot-full. 'incremental' (batch only, as in Apache Paimon 1.3) reads the changes "
                            + "that exactly one of 'incremental-between', 'incremental-between-timestamp' or "
                            + "'incremental-to-auto-tag' names; default resolves to it when 'incremental-between' or "
                            + "'incremental-between-timestamp' is set.")
                    .withFallbackKeys("log.scan")
                    .supportedOnly("all but from-creation-timestamp and from-file-creation-time", mode -> mode == StartupMode.FROM_CREATION_TIMESTAMP
                            || mode == StartupMode.FROM_FILE_CREATION_TIME
                            ? "scan mode '" + mode + "' is not implemented" : null)
                    .affectingReads();

    public static final ConfigOption<String> SCAN_PARTITIONS =
            ConfigOption.key("scan.partitions").stringType().noDefaultValue()
                    .withDescription("Partitions a read reads: 'k1=v1,k2=v2' per partition, partitions separated by "
                            + "';', a key left out stands for NULL; for lookup joins also 'max_pt()', 'max_two_pt()' "
                            + "and 'k1=max_pt()' (the newest partitions, followed as new ones appear).")
                    .withFallbackKeys("lookup.dynamic-partition").affectingReads();

    public static final ConfigOption<Long> SCAN_SNAPSHOT_ID =
            ConfigOption.key("scan.snapshot-id").longType().noDefaultValue()
                    .withDescription("Batch: read this snapshot instead of the latest. Streaming: the snapshot "
                            + "from-snapshot / from-snapshot-full start at.")
                    .checkedBy(id -> id >= 1 ? null : "snapshot ids start at 1");

    public static final ConfigOption<Long> SCAN_TIMESTAMP_MILLIS =
            ConfigOption.key("scan.timestamp-millis").longType().noDefaultValue()
                    .withDescription("Batch: read the latest snapshot committed at or before this time (epoch "
                            + "millis); fails if every snapshot is younger. Streaming (from-timestamp): read the "
                            + "changes of the snapshots committed at or after it.")
                    .withFallbackKeys("log.scan.timestamp-millis");

    public static final ConfigOption<String> SCAN_TIMESTAMP =
            ConfigOption.key("scan.timestamp").stringType().noDefaultValue()
                    .withDescription("Like 'scan.timestamp-millis', as a local date-time of this JVM's time zone: "
                            + "'yyyy-MM-dd HH:mm:ss[.SSS]' or 'yyyy-MM-dd'.")
                    .checkedBy(v -> {
                        try {
                            LocalTimestamps.toEpochMillis(v);
                            return null;
                        } catch (RuntimeException e) {
                            return e.getMessage();
                        }
                    });

    public static final ConfigOption<String> SCAN_TAG_NAME =
            ConfigOption.key("scan.tag-name").stringType().noDefaultValue()
                    .withDescription("Batch: read the snapshot of this tag (also after the snapshot itself "
                            + "expired). Streaming reads from a tag are refused, as in Apache Paimon 1.3.")
                    .affectingReads();

    public static final ConfigOption<String> SCAN_VERSION =
            ConfigOption.key("scan.version").stringType().noDefaultValue()
                    .withDescription("The version of 'VERSION AS OF': the tag of that name if there is one, "
                            + "else the snapshot of that id.")
                    .affectingReads();

    public static final ConfigOption<Long> SCAN_WATERMARK =
            ConfigOption.key("scan.watermark").longType().noDefaultValue()
                    .withDescription("Start at the first snapshot whose watermark is at least this.")
                    .affectingReads().notSupportedYet("starting from a snapshot watermark is not implemented");

    public static final ConfigOption<Long> SCAN_FILE_CREATION_TIME_MILLIS =
            ConfigOption.key("scan.file-creation-time-millis").longType().noDefaultValue()
                    .withDescription("Read only data files created after this time (epoch millis).")
                    .affectingReads().notSupportedYet("filtering by file creation time is not implemented");

    public static final ConfigOption<Long> SCAN_CREATION_TIME_MILLIS =
            ConfigOption.key("scan.creation-time-millis").longType().noDefaultValue()
                    .withDescription("Start time of scan mode 'from-creation-timestamp' (epoch millis).")
                    .affectingReads().notSupportedYet("scan mode 'from-creation-timestamp' is not implemented");

    public static final ConfigOption<Long> SCAN_BOUNDED_WATERMARK =
            ConfigOption.key("scan.bounded.watermark").longType().noDefaultValue()
                    .withDescription("A streaming read ends at the first snapshot whose watermark is larger.")
                    .affectingReads().notSupportedYet("bounded streaming reads are not implemented");

    public static final ConfigOption<Integer> SCAN_MANIFEST_PARALLELISM =
            ConfigOption.key("scan.manifest.parallelism").intType().noDefaultValue()
                    .withDescription("Threads that read manifests while planning (default: the number of cores).")
                    .checkedBy(OptionChecks.atLeast(1)).noEffectYet("manifests are read by the planning thread");

    public static final ConfigOption<Boolean> SCAN_PLAN_SORT_PARTITION =
            ConfigOption.key("scan.plan-sort-partition").booleanType().defaultValue(false)
                    .withDescription("Order splits by partition values.")
                    .noEffectYet("splits keep the order of the manifests");

    public static final ConfigOption<MemorySize> SOURCE_SPLIT_TARGET_SIZE =
            ConfigOption.key("source.split.target-size").memoryType().defaultValue(MemorySize.ofMebiBytes(128))
                    .withDescription("Target size of a split when a bucket's files are packed into splits (append"
                            + " tables; a primary-key table's bucket is read as one split).")
                    .checkedBy(OptionChecks.positiveMemory());

    public static final ConfigOption<MemorySize> SOURCE_SPLIT_OPEN_FILE_COST =
            ConfigOption.key("source.split.open-file-cost").memoryType().defaultValue(MemorySize.ofMebiBytes(4))
                    .withDescription("Size each file counts for at least when packing splits (append tables).")
                    .checkedBy(OptionChecks.positiveMemory());

    /** Values of {@code incremental-between-scan-mode}: which files an incremental read takes its changes from. */
    public enum IncrementalBetweenScanMode {
        /** {@code delta} for append tables and {@code changelog-producer = none}, else {@code changelog}. */
        AUTO("auto"),
        /** The new data files of APPEND snapshots. */
        DELTA("delta"),
        /** The changelog files of APPEND and COMPACT snapshots. */
        CHANGELOG("changelog"),
        /** The difference between the start and end snapshots' states. */
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
                            + "row kinds (-U/-D included). OVERWRITE snapshots are skipped. Two tag names "
                            + "'tag1,tag2' read the difference between the two tags' snapshots: the rows whose "
                            + "merged version changed, as their end version (as scan mode 'diff' does).")
                    .checkedBy(ScanOptions::incrementalBetweenProblem)
                    .affectingReads();

    public static final ConfigOption<String> INCREMENTAL_BETWEEN_TIMESTAMP =
            ConfigOption.key("incremental-between-timestamp").stringType().noDefaultValue()
                    .withDescription("Batch read of the changes of the snapshots committed after 't1' up to 't2' "
                            + "('t1,t2', epoch millis or 'yyyy-MM-dd HH:mm:ss'), read as 'incremental-between' reads "
                            + "them (see 'incremental-between-scan-mode').")
                    .affectingReads();

    public static final ConfigOption<String> INCREMENTAL_TO_AUTO_TAG =
            ConfigOption.key("incremental-to-auto-tag").stringType().noDefaultValue()
                    .withDescription("Batch read of the difference between this automatic tag and the automatic "
                            + "tag before it (by the periods their names stand for, 'tag.creation-period'), read as "
                            + "'incremental-between' of two tags reads it; empty when either does not exist.")
                    .affectingReads();

    public static final ConfigOption<IncrementalBetweenScanMode> INCREMENTAL_BETWEEN_SCAN_MODE =
            ConfigOption.key("incremental-between-scan-mode").enumType(IncrementalBetweenScanMode.class)
                    .defaultValue(IncrementalBetweenScanMode.AUTO)
                    .withDescription("Which files 'incremental-between' reads: 'auto' (the default: 'delta' for "
                            + "append tables and changelog-producer none, else 'changelog'), 'delta' (new data "
                            + "files of APPEND snapshots), 'changelog' (changelog files of APPEND and COMPACT "
                            + "snapshots) or 'diff' (the difference between the start and the end snapshot's "
                            + "states: for primary-key tables the keys whose merged version changed, as their end "
                            + "version; for append tables the rows of files the end has and the start has not). "
                            + "Diff reads of tables with deletion vectors are refused.")
                    .affectingReads();

    /**
     * {@code 'start,end'} of {@code incremental-between} as snapshot ids {start exclusive, end inclusive},
     * or null if the two parts are not both numbers (tag names).
     */
    public static long[] incrementalBetweenIds(String value) {
        String[] parts = value.split(",");
        if (parts.length != 2) {
            return null;
        }
        try {
            return new long[] {Long.parseLong(parts[0].trim()), Long.parseLong(parts[1].trim())};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String incrementalBetweenProblem(String value) {
        String[] parts = value.split(",", -1);
        if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
            return "it must be 'start,end', two snapshot ids (start exclusive, end inclusive) or two tag names";
        }
        long[] ids = incrementalBetweenIds(value);
        if (ids != null && (ids[0] < 0 || ids[1] < ids[0])) {
            return "the start snapshot must be >= 0 and the end snapshot >= the start";
        }
        return null;
    }

    /**
     * The time {@code scan.timestamp-millis} or else {@code scan.timestamp} names, or null when neither
     * is set.
     */
    public static Long timestampMillis(Options options) {
        Long millis = options.get(SCAN_TIMESTAMP_MILLIS);
        if (millis != null) {
            return millis;
        }
        String local = options.get(SCAN_TIMESTAMP);
        return local == null ? null : LocalTimestamps.toEpochMillis(local);
    }
}
