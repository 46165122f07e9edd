package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The order merged manifests are written in: by partition (field by field, nulls first, each field by
 * the order its statistics use), then bucket. Entries of one partition end up next to each other, so a
 * manifest's {@code _PARTITION_STATS} and each of its Avro blocks cover a narrow range of partitions
 * and plans of a few partitions can skip the rest (see {@link ManifestBlockIndex}). Fields of types
 * without a statistics order (nested) compare by the partition row's bytes, which keeps equal
 * partitions together. Reordering entries of one merge never changes what they mean: within it no file
 * is both added and deleted (the merge cancels such pairs first).
 */
final class PartitionOrder implements Comparator<ManifestEntry> {
    private final List<DataType> types;
    private final FieldGetter[] getters;

    PartitionOrder(RowType partitionType) {
        this.types = partitionType.fieldTypes();
        this.getters = InternalRowUtils.fieldGetters(types);
    }

    @Override
    public int compare(ManifestEntry a, ManifestEntry b) {
        int c = comparePartitions(a.partition(), b.partition());
        return c != 0 ? c : Integer.compare(a.bucket(), b.bucket());
    }

    int comparePartitions(BinaryRow a, BinaryRow b) {
        if (a.arity() != getters.length || b.arity() != getters.length) {
            return Arrays.compareUnsigned(a.toSerializedBytes(), b.toSerializedBytes());
        }
        for (int i = 0; i < getters.length; i++) {
            Object x = getters[i].get(a);
            Object y = getters[i].get(b);
            if (x == null || y == null) {
                if (x != y) {
                    return x == null ? -1 : 1;
                }
                continue;
            }
            DataType type = types.get(i);
            if (!InternalRowUtils.isOrderable(type)) {
                return Arrays.compareUnsigned(a.toSerializedBytes(), b.toSerializedBytes());
            }
            int c = InternalRowUtils.compare(x, y, type);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
