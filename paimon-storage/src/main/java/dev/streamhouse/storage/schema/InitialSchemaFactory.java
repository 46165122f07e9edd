package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.options.TableKindOptions;
import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.options.InvalidOptionsException;
import dev.streamhouse.storage.options.OptionValidator;
import dev.streamhouse.storage.options.TableShape;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the {@link Schema} a user asks for into schema version 0, validating it as Paimon does on
 * table creation (docs/format.md §3.1). Every violation is an {@link IllegalArgumentException} whose message
 * names the offending column or option.
 *
 * <p>Rules: at least one column; unique column names and field ids (nested included); the options
 * {@code primary-key} / {@code partition} are moved into the key lists (giving both a list and the
 * option is an error); partition and primary keys exist, are unique and are not nested types; the
 * primary key is not made of partition columns only; primary-key columns become NOT NULL;
 * {@code bucket} is -2, -1 or positive; {@code bucket-key} columns exist, are not partition columns,
 * belong to the primary key (primary-key tables) and are not combined with {@code bucket=-1}; an
 * append table with {@code bucket > 0} needs {@code bucket-key}; a primary key without all partition
 * keys (cross-partition upsert) needs {@code bucket=-1}, as Paimon requires, and is refused as not supported
 * yet; every option passes
 * {@link OptionValidator} (values, what is not supported yet, combinations, no credentials). Only the
 * options the user gave are kept.
 */
final class InitialSchemaFactory {
    static final String PRIMARY_KEY_OPTION = TableKindOptions.PRIMARY_KEY.key();
    static final String PARTITION_OPTION = TableKindOptions.PARTITION.key();
    static final Set<String> RESERVED_NAMES = Set.of("_SEQUENCE_NUMBER", "_VALUE_KIND");
    static final String RESERVED_PREFIX = "_KEY_";

    private InitialSchemaFactory() {}

    static TableSchema create(Schema schema, long timeMillis, String table) {
        try {
            return validated(schema, timeMillis, table);
        } catch (InvalidOptionsException e) {
            throw new InvalidOptionsException("Cannot create table " + table, e.problems());
        } catch (IllegalArgumentException e) {
            // No cause: the message is the whole story, and SQL clients show the innermost cause.
            throw new IllegalArgumentException("Cannot create table " + table + ": " + e.getMessage());
        }
    }

    private static TableSchema validated(Schema schema, long timeMillis, String table) {
        Map<String, String> options = new HashMap<>(schema.options());
        List<String> primaryKeys = keysFromListOrOption(schema.primaryKeys(), options, PRIMARY_KEY_OPTION, "primary key");
        List<String> partitionKeys = keysFromListOrOption(schema.partitionKeys(), options, PARTITION_OPTION, "partition keys");
        List<DataField> fields = schema.fields();
        if (fields.isEmpty()) {
            throw invalid("the schema has no columns");
        }
        checkNames(fields);
        checkUniqueIds(fields);
        RowType rowType = new RowType(fields);
        checkKeys(rowType, partitionKeys, "Partition key");
        checkKeys(rowType, primaryKeys, "Primary key");
        if (!primaryKeys.isEmpty() && partitionKeys.containsAll(primaryKeys)) {
            throw invalid("the primary key " + primaryKeys + " consists only of partition keys " + partitionKeys
                    + ", which would keep one row per partition; add a non-partition column to the primary key");
        }
        checkBucket(options, rowType, partitionKeys, primaryKeys);
        OptionValidator.instance().checkNewTable("Table " + table,
                new TableShape(rowType.fieldNames(), primaryKeys, partitionKeys), options);
        List<DataField> stored = new ArrayList<>(fields.size());
        for (DataField f : fields) {
            stored.add(primaryKeys.contains(f.name()) ? f.withType(f.type().notNull()) : f);
        }
        return new TableSchema(TableSchema.CURRENT_VERSION, 0, stored, rowType.highestFieldId(), partitionKeys,
                primaryKeys, options, schema.comment(), timeMillis);
    }

    private static List<String> keysFromListOrOption(
            List<String> declared, Map<String, String> options, String option, String what) {
        String fromOption = options.remove(option);
        if (fromOption == null) {
            return declared;
        }
        if (!declared.isEmpty()) {
            throw invalid("the " + what + " is given both as " + declared + " and in option '" + option + "' ('"
                    + fromOption + "'); give it only once");
        }
        List<String> out = new ArrayList<>();
        for (String part : fromOption.split(",")) {
            String name = part.trim();
            if (name.isEmpty()) {
                throw invalid("option '" + option + "' ('" + fromOption + "') contains an empty column name");
            }
            out.add(name);
        }
        return out;
    }

    private static void checkNames(List<DataField> fields) {
        Set<String> seen = new HashSet<>();
        for (DataField f : fields) {
            if (f.name().isEmpty()) {
                throw invalid("a column has an empty name");
            }
            if (!seen.add(f.name())) {
                throw invalid("column name '" + f.name() + "' is used more than once");
            }
            if (RESERVED_NAMES.contains(f.name()) || f.name().startsWith(RESERVED_PREFIX)) {
                throw invalid("column name '" + f.name() + "' is reserved by the data file layout (names "
                        + RESERVED_NAMES + " and the prefix '" + RESERVED_PREFIX + "' are reserved); rename the column");
            }
        }
    }

    private static void checkUniqueIds(List<DataField> fields) {
        Map<Integer, String> seen = new HashMap<>();
        collectIds(fields, seen);
    }

    private static void collectIds(List<DataField> fields, Map<Integer, String> seen) {
        for (DataField f : fields) {
            String previous = seen.putIfAbsent(f.id(), f.name());
            if (previous != null) {
                throw invalid("field id " + f.id() + " is used by both '" + previous + "' and '" + f.name() + "'");
            }
            collectNested(f.type(), seen);
        }
    }

    private static void collectNested(DataType type, Map<Integer, String> seen) {
        switch (type.root()) {
            case ROW:
                collectIds(((RowType) type).fields(), seen);
                break;
            case ARRAY:
            case MULTISET:
                collectNested(((dev.streamhouse.storage.types.ArrayType) type).elementType(), seen);
                break;
            case MAP:
                collectNested(((dev.streamhouse.storage.types.MapType) type).keyType(), seen);
                collectNested(((dev.streamhouse.storage.types.MapType) type).valueType(), seen);
                break;
            default:
                break;
        }
    }

    private static void checkKeys(RowType rowType, List<String> keys, String what) {
        Set<String> seen = new LinkedHashSet<>();
        for (String key : keys) {
            if (!seen.add(key)) {
                throw invalid(what + " column '" + key + "' is listed more than once in " + keys);
            }
            int index = rowType.fieldIndex(key);
            if (index < 0) {
                throw invalid(what + " column '" + key + "' does not exist; columns are " + rowType.fieldNames());
            }
            if (rowType.typeAt(index).root().isNested()) {
                throw invalid(what + " column '" + key + "' has type " + rowType.typeAt(index)
                        + ", which cannot be a key");
            }
        }
    }

    private static void checkBucket(
            Map<String, String> options, RowType rowType, List<String> partitionKeys, List<String> primaryKeys) {
        String rawBucket = options.get(BucketOptions.BUCKET.key());
        int bucket = BucketOptions.BUCKET.defaultValue();
        if (rawBucket != null) {
            try {
                bucket = Integer.parseInt(rawBucket.trim());
            } catch (NumberFormatException e) {
                throw invalid("option 'bucket' must be an integer but is '" + rawBucket + "'");
            }
            if (bucket == 0 || bucket < -2) {
                throw invalid("option 'bucket' must be a positive bucket count, -1 (dynamic/unaware) or -2 "
                        + "(postpone) but is " + bucket);
            }
        }
        if (!primaryKeys.isEmpty() && !partitionKeys.isEmpty() && !primaryKeys.containsAll(partitionKeys)
                && bucket != -1) {
            throw invalid("the primary key " + primaryKeys + " does not include all partition keys " + partitionKeys
                    + " (a cross-partition upsert), which needs 'bucket' = -1 (dynamic buckets), not " + bucket
                    + "; add the partition keys to the primary key or set 'bucket' = '-1'");
        }
        if (!primaryKeys.isEmpty() && !primaryKeys.containsAll(partitionKeys)) {
            throw invalid("the primary key " + primaryKeys + " does not include all partition keys " + partitionKeys
                    + ": such a cross-partition upsert table is not supported yet; add the partition keys to the "
                    + "primary key");
        }
        String rawBucketKey = options.get(BucketOptions.BUCKET_KEY.key());
        boolean hasBucketKey = rawBucketKey != null && !rawBucketKey.isEmpty();
        if (!hasBucketKey) {
            if (primaryKeys.isEmpty() && bucket > 0) {
                throw invalid("an append table with 'bucket' = " + bucket + " needs option 'bucket-key' naming the "
                        + "columns to hash");
            }
            return;
        }
        if (bucket == -1) {
            throw invalid("option 'bucket-key' ('" + rawBucketKey + "') cannot be combined with 'bucket' = -1; set a "
                    + "positive bucket count or remove 'bucket-key'");
        }
        List<String> bucketKeys = Arrays.asList(rawBucketKey.split(","));
        checkKeys(rowType, bucketKeys, "Bucket key");
        for (String key : bucketKeys) {
            if (partitionKeys.contains(key)) {
                throw invalid("bucket key column '" + key + "' is a partition key; bucket keys must not contain "
                        + "partition columns");
            }
            if (!primaryKeys.isEmpty() && !primaryKeys.contains(key)) {
                throw invalid("bucket key column '" + key + "' is not part of the primary key " + primaryKeys);
            }
        }
    }

    private static IllegalArgumentException invalid(String why) {
        return new IllegalArgumentException(why);
    }
}
