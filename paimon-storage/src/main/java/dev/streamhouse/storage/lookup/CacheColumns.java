package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.mergetree.read.MergeReadProjection;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.types.RowType;

import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The columns a lookup cache reads of its table and the role of each in the cached rows: first the
 * columns the join outputs (so the output is a prefix of a cached row), then those only the cache
 * needs: the join key, the primary key, the sequence fields, the partition fields of a cross-partition
 * table (for {@link VersionRule}) and the filter's columns. Also decides how the rows are kept
 * ({@link #newRows}). Immutable.
 */
final class CacheColumns {
    /** Table positions of the columns read, in cached-row order. */
    final int[] readPositions;
    final RowType readType;
    /** Positions in the cached row of the output columns, in output order. */
    final int[] outputPositions;
    /** Whether {@link #outputPositions} are {@code 0..n-1}. */
    final boolean outputIsPrefix;
    final int[] joinPositions;
    final int[] primaryKeyPositions;
    final VersionRule versions;
    /** The filter over cached rows, or null. */
    final Predicate rowFilter;

    CacheColumns(Table table, int[] outputProjection, int[] joinKeys, Predicate filter) {
        RowType tableType = table.rowType();
        Options options = table.schema().tableOptions();
        boolean primaryKey = !table.primaryKeys().isEmpty();
        List<String> sequenceFields = primaryKey ? MergeReadProjection.sequenceFields(options) : List.of();
        boolean crossPartition = primaryKey && !table.primaryKeys().containsAll(table.partitionKeys());

        LinkedHashSet<Integer> read = new LinkedHashSet<>();
        Arrays.stream(outputProjection).forEach(read::add);
        Arrays.stream(joinKeys).forEach(read::add);
        table.primaryKeys().forEach(f -> read.add(tableType.requireFieldIndex(f)));
        sequenceFields.forEach(f -> read.add(tableType.requireFieldIndex(f)));
        if (crossPartition) {
            table.partitionKeys().forEach(f -> read.add(tableType.requireFieldIndex(f)));
        }
        if (filter != null) {
            read.addAll(PredicateBuilder.referencedFields(filter));
        }
        this.readPositions = read.stream().mapToInt(Integer::intValue).toArray();
        this.readType = tableType.project(readPositions);
        int[] tableToRead = new int[tableType.fieldCount()];
        Arrays.fill(tableToRead, -1);
        for (int i = 0; i < readPositions.length; i++) {
            tableToRead[readPositions[i]] = i;
        }
        this.outputPositions = Arrays.stream(outputProjection).map(p -> tableToRead[p]).toArray();
        boolean prefix = true;
        for (int i = 0; i < outputPositions.length; i++) {
            prefix &= outputPositions[i] == i;
        }
        this.outputIsPrefix = prefix;
        this.joinPositions = Arrays.stream(joinKeys).map(p -> tableToRead[p]).toArray();
        this.primaryKeyPositions = positions(table.primaryKeys(), tableType, tableToRead);
        this.versions = new VersionRule(readType, positions(sequenceFields, tableType, tableToRead),
                sequenceFields.isEmpty() || MergeReadProjection.sequenceAscending(options),
                crossPartition ? positions(table.partitionKeys(), tableType, tableToRead) : new int[0]);
        this.rowFilter = filter == null ? null
                : PredicateBuilder.transformFieldMapping(filter, tableToRead).orElseThrow();
    }

    private static int[] positions(List<String> fields, RowType tableType, int[] tableToRead) {
        return fields.stream().mapToInt(f -> tableToRead[tableType.requireFieldIndex(f)]).toArray();
    }

    /**
     * Empty rows of the cache in new stores: by primary key when the join key is the whole primary key
     * (in any order), with a secondary index when it is another set of columns, by join key and
     * counter for an append table.
     */
    CachedRows newRows(LookupStores stores, long expectedRows, String tableName) {
        RowCodec values = RowCodec.wholeRows(readType);
        RowCodec join = new RowCodec(readType, joinPositions);
        if (primaryKeyPositions.length == 0) {
            return new AppendRows(stores.open("rows", true, expectedRows), join, values, tableName);
        }
        Set<Integer> joinSet = new HashSet<>();
        Arrays.stream(joinPositions).forEach(joinSet::add);
        Set<Integer> keySet = new HashSet<>();
        Arrays.stream(primaryKeyPositions).forEach(keySet::add);
        if (joinSet.equals(keySet)) {
            return new PrimaryKeyRows(stores.open("rows", false, expectedRows), join, values, versions);
        }
        return new SecondaryIndexRows(stores.open("rows", false, expectedRows), stores.open("index", true, expectedRows),
                new RowCodec(readType, primaryKeyPositions), join, values, versions);
    }
}
