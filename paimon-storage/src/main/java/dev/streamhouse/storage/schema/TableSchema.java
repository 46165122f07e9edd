package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.TableShape;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One version of a table's schema, the content of {@code schema/schema-<id>} (docs/format.md §3).
 *
 * @param comment the table comment, or null
 */
public record TableSchema(
        int version,
        long id,
        List<DataField> fields,
        int highestFieldId,
        List<String> partitionKeys,
        List<String> primaryKeys,
        Map<String, String> options,
        String comment,
        long timeMillis) implements java.io.Serializable {

    /** The schema file format version this store writes. */
    public static final int CURRENT_VERSION = 3;

    public TableSchema {
        fields = List.copyOf(fields);
        partitionKeys = List.copyOf(partitionKeys);
        primaryKeys = List.copyOf(primaryKeys);
        options = Map.copyOf(options);
    }

    public RowType rowType() {
        return new RowType(fields);
    }

    public Options tableOptions() {
        return new Options(options);
    }

    /** Column names and keys, as option rules need them. */
    public TableShape shape() {
        return new TableShape(fieldNames(), primaryKeys, partitionKeys);
    }

    public List<String> fieldNames() {
        return fields.stream().map(DataField::name).collect(Collectors.toList());
    }

    public boolean hasPrimaryKey() {
        return !primaryKeys.isEmpty();
    }

    /** The partition columns as a row type, in partition-key order. */
    public RowType partitionType() {
        return rowType().project(partitionKeys);
    }

    /** Positions of the partition columns in the table row. */
    public int[] partitionPositions() {
        return positionsOf(partitionKeys);
    }

    /** The primary key minus partition columns, in primary-key order (docs/format.md §6.3). */
    public List<String> trimmedPrimaryKeys() {
        List<String> out = new ArrayList<>();
        for (String k : primaryKeys) {
            if (!partitionKeys.contains(k)) {
                out.add(k);
            }
        }
        return out;
    }

    /** Bucket columns (docs/format.md §7.2): {@code bucket-key} split on ',' untrimmed, else the trimmed PK. */
    public List<String> bucketKeys() {
        String configured = options.get(BucketOptions.BUCKET_KEY.key());
        if (configured != null && !configured.isEmpty()) {
            return Arrays.asList(configured.split(","));
        }
        return trimmedPrimaryKeys();
    }

    public int[] positionsOf(List<String> names) {
        RowType rowType = rowType();
        int[] out = new int[names.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = rowType.requireFieldIndex(names.get(i));
        }
        return out;
    }

    public List<DataType> typesOf(List<String> names) {
        RowType rowType = rowType();
        return names.stream().map(n -> rowType.typeAt(rowType.requireFieldIndex(n))).collect(Collectors.toList());
    }

    /** The bucket count option. */
    public int numBuckets() {
        return tableOptions().get(BucketOptions.BUCKET);
    }
}
