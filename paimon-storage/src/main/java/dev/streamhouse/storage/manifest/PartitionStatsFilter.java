package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.util.Collection;
import java.util.List;

/**
 * Decides whether a manifest's {@code _PARTITION_STATS} may cover a given partition. Conservative:
 * anything unknown (missing min/max, null counts, an unexpected arity) answers "may contain", because
 * a wrong "cannot contain" would let manifest merging keep an ADD whose DELETE it drops.
 */
final class PartitionStatsFilter {
    private final List<DataType> types;
    private final FieldGetter[] getters;

    PartitionStatsFilter(RowType partitionType) {
        this.types = partitionType.fieldTypes();
        this.getters = new FieldGetter[types.size()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = InternalRowUtils.fieldGetter(types.get(i), i);
        }
    }

    boolean mayContainAny(SimpleStats stats, Collection<BinaryRow> partitions) {
        for (BinaryRow p : partitions) {
            if (mayContain(stats, p)) {
                return true;
            }
        }
        return false;
    }

    boolean mayContain(SimpleStats stats, BinaryRow partition) {
        int n = getters.length;
        if (stats.minValues().arity() != n || stats.maxValues().arity() != n || partition.arity() != n) {
            return true;
        }
        Long[] nullCounts = stats.nullCounts();
        for (int i = 0; i < n; i++) {
            Object v = getters[i].get(partition);
            if (v == null) {
                if (nullCounts != null && nullCounts.length == n && nullCounts[i] != null && nullCounts[i] == 0) {
                    return false;
                }
                continue;
            }
            DataType type = types.get(i);
            if (!InternalRowUtils.isOrderable(type) || stats.minValues().isNullAt(i) || stats.maxValues().isNullAt(i)) {
                continue;
            }
            if (InternalRowUtils.compare(v, getters[i].get(stats.minValues()), type) < 0
                    || InternalRowUtils.compare(v, getters[i].get(stats.maxValues()), type) > 0) {
                return false;
            }
        }
        return true;
    }
}
