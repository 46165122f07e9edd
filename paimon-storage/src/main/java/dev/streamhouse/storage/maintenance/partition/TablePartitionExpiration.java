package dev.streamhouse.storage.maintenance.partition;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.io.PartitionPathRenderer;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.PartitionLifecycleOptions;
import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.partition.PartitionTimeExtractor;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Partition;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.types.RowType;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Drops the partitions of a table that are older than {@code partition.expiration-time}, as Apache
 * Paimon 1.3.1 does: what {@code CALL sys.expire_partitions} runs and what a writer's commit runs every
 * {@code partition.expiration-check-interval} ({@link #afterCommitHook}).
 *
 * <p>A partition's age comes from {@code partition.expiration-strategy}: {@code values-time} reads a
 * time from its values ({@link PartitionTimeExtractor}; partitions whose values are not a time, or are
 * NULL, are kept and logged); {@code update-time} takes the newest creation time of its live files. A
 * partition expires when that time is before now minus the expiration time (local wall clock, as in
 * Paimon). At most {@code partition.expiration-max-num} partitions go per run, the smallest values
 * first; they are dropped by OVERWRITE snapshots that delete all their files (one snapshot, or one per
 * {@code partition.expiration-batch-size} partitions), under a fresh commit user so they never mix with
 * a streaming job's exactly-once identities. Data files stay on disk until snapshot expiration
 * removes them, so older snapshots still read the partition.
 *
 * <p>Errors: {@link IllegalArgumentException} for invalid settings; the commit failures of
 * {@link TableCommit}.
 */
public final class TablePartitionExpiration {
    private static final Logger LOG = LoggerFactory.getLogger(TablePartitionExpiration.class);

    /** Values of {@code partition.expiration-strategy} this implementation has. */
    public enum Strategy {
        VALUES_TIME, UPDATE_TIME;

        static Strategy parse(String value) {
            switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "values-time":
                    return VALUES_TIME;
                case "update-time":
                    return UPDATE_TIME;
                default:
                    throw new IllegalArgumentException("Cannot expire partitions with strategy '" + value
                            + "': expected 'values-time' or 'update-time' ('custom' is not supported)");
            }
        }
    }

    private final FileStoreTable table;
    private final Duration expirationTime;
    private final Strategy strategy;
    private final PartitionTimeExtractor extractor;
    private final int maxExpires;
    private final Integer batchSize;

    private TablePartitionExpiration(FileStoreTable table) {
        Options o = table.schema().tableOptions();
        this.table = table;
        this.expirationTime = o.get(PartitionLifecycleOptions.PARTITION_EXPIRATION_TIME);
        if (expirationTime == null) {
            throw new IllegalArgumentException("Cannot expire partitions of table " + table.fullName() + ": "
                    + "no expiration time; set 'partition.expiration-time' (or argument expiration_time)");
        }
        if (table.partitionKeys().isEmpty()) {
            throw new IllegalArgumentException("Cannot expire partitions of table " + table.fullName()
                    + ": it is not partitioned");
        }
        this.strategy = Strategy.parse(o.get(PartitionLifecycleOptions.PARTITION_EXPIRATION_STRATEGY));
        this.extractor = new PartitionTimeExtractor(o.get(PartitionLifecycleOptions.PARTITION_TIMESTAMP_PATTERN),
                o.get(PartitionLifecycleOptions.PARTITION_TIMESTAMP_FORMATTER));
        this.maxExpires = o.get(PartitionLifecycleOptions.PARTITION_EXPIRATION_MAX_NUM);
        this.batchSize = o.get(PartitionLifecycleOptions.PARTITION_EXPIRATION_BATCH_SIZE);
    }

    /**
     * Partition expiration of {@code table} with the settings of its options (pass a
     * {@link Table#copy} to override them).
     *
     * @throws IllegalArgumentException if {@code partition.expiration-time} is unset, the table is not
     *     partitioned, or the strategy or formatter is invalid
     * @throws UnsupportedOperationException if the table is not stored in the Paimon format
     */
    public static TablePartitionExpiration of(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot expire partitions of table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return new TablePartitionExpiration((FileStoreTable) table);
    }

    /** The partitions of the latest snapshot that have expired at {@code now}, smallest values first. */
    public List<Partition> expiredPartitions(LocalDateTime now) {
        LocalDateTime threshold = now.minus(expirationTime);
        RowType partitionType = table.schema().partitionType();
        // Paimon reads partition times from the Java form of the internal values (legacy names).
        PartitionPathRenderer internalValues = new PartitionPathRenderer(partitionType,
                table.schema().tableOptions().get(PartitionOptions.PARTITION_DEFAULT_NAME), true);
        List<Partition> expired = new ArrayList<>();
        for (Partition p : table.partitions()) {
            LocalDateTime time = strategy == Strategy.VALUES_TIME
                    ? valuesTime(p.row(), internalValues, partitionType)
                    : updateTime(p);
            if (time != null && time.isBefore(threshold)) {
                expired.add(p);
            }
        }
        expired.sort(Comparator.comparing(p -> String.join(",", p.spec().values())));
        return expired.size() > maxExpires ? new ArrayList<>(expired.subList(0, maxExpires)) : expired;
    }

    private LocalDateTime valuesTime(BinaryRow row, PartitionPathRenderer internalValues, RowType partitionType) {
        LinkedHashMap<String, String> values = internalValues.values(row);
        for (int i = 0; i < partitionType.fieldCount(); i++) {
            if (row.isNullAt(i)) {
                LOG.warn("Partition {} of table {} is not expired: it has a NULL value; drop it by hand or use "
                        + "'partition.expiration-strategy' = 'update-time'", values, table.fullName());
                return null;
            }
        }
        try {
            return extractor.extract(new ArrayList<>(values.keySet()), new ArrayList<>(values.values()));
        } catch (DateTimeParseException e) {
            LOG.warn("Partition {} of table {} is not expired: its values are not a time in the form of "
                    + "'partition.timestamp-pattern' and 'partition.timestamp-formatter' ({}); check those "
                    + "options, drop it by hand, or use 'partition.expiration-strategy' = 'update-time'",
                    values, table.fullName(), e.getMessage());
            return null;
        }
    }

    private static LocalDateTime updateTime(Partition p) {
        Long millis = p.lastFileCreationMillis();
        // Creation times are wall-clock times stored as if UTC (docs/format.md §5.4).
        return millis == null ? null : LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000),
                (int) Math.floorMod(millis, 1000) * 1_000_000, ZoneOffset.UTC);
    }

    /**
     * Drops the partitions expired at {@code now}.
     *
     * @return the dropped partitions' values by key (as their directories name them), in drop order;
     *     empty if none expired
     */
    public List<LinkedHashMap<String, String>> expire(LocalDateTime now) {
        List<Partition> expired = expiredPartitions(now);
        List<LinkedHashMap<String, String>> out = new ArrayList<>();
        if (expired.isEmpty()) {
            return out;
        }
        int batch = batchSize == null ? expired.size() : batchSize;
        try (TableCommit commit = table.newStreamCommit("partition-expire-" + UUID.randomUUID())) {
            for (int from = 0; from < expired.size(); from += batch) {
                List<Partition> part = expired.subList(from, Math.min(expired.size(), from + batch));
                List<BinaryRow> rows = new ArrayList<>();
                part.forEach(p -> rows.add(p.row()));
                commit.dropPartitionRows(Snapshot.BATCH_COMMIT_IDENTIFIER, rows);
                part.forEach(p -> out.add(p.spec()));
            }
        }
        LOG.info("Expired partitions {} of table {}", out, table.fullName());
        return out;
    }

    /**
     * What a writer's commit runs after each successful commit when the table sets
     * {@code partition.expiration-time}: every {@code partition.expiration-check-interval} (the first
     * time one interval after the hook is made, as in Paimon; with interval 0 after every commit) and,
     * with {@code end-input.check-partition-expire}, after a batch job's commit. A failing expiration
     * never fails the data commit: it is logged and tried again at the next check.
     *
     * @return the hook (argument: the commit identifier), or null if the table does not expire partitions
     */
    public static java.util.function.LongConsumer afterCommitHook(FileStoreTable table) {
        Options o = table.schema().tableOptions();
        if (o.get(PartitionLifecycleOptions.PARTITION_EXPIRATION_TIME) == null || table.partitionKeys().isEmpty()) {
            return null;
        }
        Duration interval = o.get(PartitionLifecycleOptions.PARTITION_EXPIRATION_CHECK_INTERVAL);
        boolean endInput = o.get(PartitionLifecycleOptions.END_INPUT_CHECK_PARTITION_EXPIRE);
        return new java.util.function.LongConsumer() {
            private LocalDateTime lastCheck = LocalDateTime.now();

            @Override
            public void accept(long identifier) {
                LocalDateTime now = LocalDateTime.now();
                boolean due = interval.isZero() || now.isAfter(lastCheck.plus(interval))
                        || (endInput && identifier == Snapshot.BATCH_COMMIT_IDENTIFIER);
                if (!due) {
                    return;
                }
                lastCheck = now;
                try {
                    new TablePartitionExpiration(table).expire(now);
                } catch (RuntimeException e) {
                    LOG.warn("Cannot expire partitions of table {} after commit {}; trying again in {}: {}",
                            table.fullName(), identifier, interval, e.toString(), e);
                }
            }
        };
    }
}
