package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.options.OptionRegistry;

import java.util.List;
import java.util.TreeSet;

/**
 * Which table options {@code ALTER TABLE SET / RESET} may change.
 *
 * <p>Immutable: the options declared {@link dev.streamhouse.storage.options.ConfigOption#immutable()
 * immutable} (Paimon's {@code @Immutable} options, plus a few more whose change would misread existing
 * files, e.g. the two partition naming options because existing files are found by the directory
 * names they produce, docs/format.md §1.3), and every key containing {@code remove-record-on-}. Setting one of them
 * to the value it already has, or resetting one that is not set, is a no-op and allowed.
 *
 * <p>{@code bucket} may change only between positive counts: a table with {@code -1} (dynamic or
 * unaware buckets) or {@code -2} (postpone) keeps its mode, and a fixed-bucket table cannot become
 * one. Existing partitions keep the bucket count their files were written with; writers refuse them
 * until they are rewritten with INSERT OVERWRITE (the rescale procedure).
 */
final class OptionChangeRules {
    private static final int DYNAMIC_BUCKETS = -1;
    private static final int POSTPONE_BUCKET = -2;

    private OptionChangeRules() {}

    static boolean isImmutable(String key) {
        return OptionRegistry.instance().isImmutable(key);
    }

    /**
     * Checks {@code SET key = newValue} where the option currently is {@code oldValue} (null if unset).
     *
     * @throws SchemaChangeException if the option may not change so
     */
    static void checkSet(String table, String key, String oldValue, String newValue) {
        if (newValue.equals(oldValue)) {
            return;
        }
        refuseImmutable(table, key, "set", "to '" + newValue + "'");
        if (key.equals(BucketOptions.BUCKET.key())) {
            checkBucketChange(table, bucketOf(table, oldValue), parseBucket(table, newValue));
        }
    }

    /**
     * Checks {@code RESET key} where the option currently is {@code oldValue} (null if unset).
     *
     * @throws SchemaChangeException if the option may not change so
     */
    static void checkRemove(String table, String key, String oldValue) {
        if (oldValue == null) {
            return;
        }
        refuseImmutable(table, key, "reset", "");
        if (key.equals(BucketOptions.BUCKET.key())) {
            int old = bucketOf(table, oldValue);
            if (old != BucketOptions.BUCKET.defaultValue()) {
                throw new SchemaChangeException("Cannot reset option 'bucket' of table " + table
                        + ": that would change the bucket count from " + old + " to the default "
                        + BucketOptions.BUCKET.defaultValue() + " (dynamic/unaware buckets), which is not supported");
            }
        }
    }

    private static void refuseImmutable(String table, String key, String verb, String detail) {
        if (!isImmutable(key)) {
            return;
        }
        String why = key.equals(InitialSchemaFactory.PRIMARY_KEY_OPTION) || key.equals(InitialSchemaFactory.PARTITION_OPTION)
                ? "altering primary key / partition keys is not supported yet"
                : "it is fixed when the table is created; immutable options are " + sorted();
        throw new SchemaChangeException("Cannot " + verb + " option '" + key + "' of table " + table
                + (detail.isEmpty() ? "" : " " + detail) + ": " + why
                + "; to change it, create a new table and copy the data");
    }

    private static List<String> sorted() {
        TreeSet<String> all = new TreeSet<>(OptionRegistry.instance().immutableKeys());
        all.add("*remove-record-on-*");
        return List.copyOf(all);
    }

    private static int bucketOf(String table, String raw) {
        return raw == null ? BucketOptions.BUCKET.defaultValue() : parseBucket(table, raw);
    }

    private static int parseBucket(String table, String raw) {
        try {
            return Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new SchemaChangeException("Cannot set option 'bucket' of table " + table + " to '" + raw
                    + "': it must be an integer");
        }
    }

    private static void checkBucketChange(String table, int oldBucket, int newBucket) {
        if (oldBucket == newBucket) {
            return;
        }
        String prefix = "Cannot set option 'bucket' of table " + table + " from " + oldBucket + " to " + newBucket + ": ";
        if (oldBucket == DYNAMIC_BUCKETS) {
            throw new SchemaChangeException(prefix + "a table with dynamic or unaware buckets (-1) cannot switch to "
                    + "another bucket mode");
        }
        if (oldBucket == POSTPONE_BUCKET) {
            throw new SchemaChangeException(prefix + "a table with postponed buckets (-2) cannot switch to another "
                    + "bucket mode");
        }
        if (newBucket <= 0) {
            throw new SchemaChangeException(prefix + "a fixed-bucket table can only get another positive bucket "
                    + "count; -1 (dynamic/unaware) and -2 (postpone) are chosen when the table is created");
        }
    }
}
