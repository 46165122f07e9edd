package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.util.List;

/**
 * Full min/max/null-count statistics over the partition rows of a manifest's entries (docs/format.md §5.3
 * {@code _PARTITION_STATS}): exact values, no truncation. A column whose values are all null has null
 * min and max. Not thread-safe.
 */
final class PartitionStatsCollector {
    private final List<DataType> types;
    private final FieldGetter[] getters;
    private final Object[] mins;
    private final Object[] maxs;
    private final long[] nullCounts;

    PartitionStatsCollector(RowType partitionType) {
        this.types = partitionType.fieldTypes();
        this.getters = new FieldGetter[types.size()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = InternalRowUtils.fieldGetter(types.get(i), i);
        }
        this.mins = new Object[types.size()];
        this.maxs = new Object[types.size()];
        this.nullCounts = new long[types.size()];
    }

    void add(BinaryRow partition) {
        if (partition.arity() != getters.length) {
            throw new IllegalArgumentException("partition row has " + partition.arity() + " fields but the partition type "
                    + types + " has " + getters.length);
        }
        for (int i = 0; i < getters.length; i++) {
            Object v = getters[i].get(partition);
            if (v == null) {
                nullCounts[i]++;
                continue;
            }
            DataType type = types.get(i);
            if (!InternalRowUtils.isOrderable(type)) {
                continue;
            }
            if (mins[i] == null || InternalRowUtils.compare(v, mins[i], type) < 0) {
                mins[i] = v;
            }
            if (maxs[i] == null || InternalRowUtils.compare(v, maxs[i], type) > 0) {
                maxs[i] = v;
            }
        }
    }

    SimpleStats result() {
        BinaryRowConverter converter = new BinaryRowConverter(types);
        Long[] counts = new Long[nullCounts.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = nullCounts[i];
        }
        return new SimpleStats(converter.toBinaryRow(mins.clone()), converter.toBinaryRow(maxs.clone()),
                counts);
    }
}
