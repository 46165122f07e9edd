package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.sync.columns.BoundColumns;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A source table's columns as its target table has them: the source's columns with their table types
 * ({@link TypeMapping}; primary-key columns NOT NULL), then the sync's computed and metadata columns
 * bound to this source ({@link dev.streamhouse.flink.cdc.sync.columns.ExtraColumns}), and the values of
 * a row image of a change in that order.
 */
final class TargetColumns {
    private final CdcSchema source;
    private final List<SchemaEvolutionRules.Column> columns;
    private final BoundColumns extra;

    private TargetColumns(CdcSchema source, List<SchemaEvolutionRules.Column> columns, BoundColumns extra) {
        this.source = source;
        this.columns = columns;
        this.extra = extra;
    }

    /**
     * @param table the target table's current row type, null before it exists
     * @throws IncompatibleSchemaException naming the argument and the source table if a computed or
     *     metadata column does not fit the source (like a column type change that cannot be followed)
     * @throws IllegalArgumentException if a source column has no table type
     */
    static TargetColumns of(SyncSettings settings, CdcSchema schema, List<String> primaryKeys, RowType table) {
        List<SchemaEvolutionRules.Column> columns = new ArrayList<>();
        List<DataType> sourceTypes = new ArrayList<>();
        for (CdcColumn c : schema.columns()) {
            DataType type = settings.typeMapping().toTableType(c, primaryKeys.contains(c.name()));
            columns.add(new SchemaEvolutionRules.Column(c.name(), type, c.comment()));
            sourceTypes.add(type);
        }
        if (settings.extraColumns().isEmpty()) {
            return new TargetColumns(schema, columns, null);
        }
        BoundColumns extra;
        try {
            extra = settings.extraColumns().bind(schema, sourceTypes, new HashSet<>(primaryKeys), table,
                    settings.timeZone());
        } catch (IllegalArgumentException e) {
            throw new IncompatibleSchemaException(e.getMessage());
        }
        for (int i = 0; i < extra.names().size(); i++) {
            columns.add(new SchemaEvolutionRules.Column(extra.names().get(i), extra.types().get(i), null));
        }
        return new TargetColumns(schema, columns, extra);
    }

    /**
     * Checks, before a sync starts, that the computed and metadata columns fit every source table the
     * sync takes now, and that a table sync's partition keys are columns of its source tables or added
     * columns, as Paimon checks when it builds the job.
     *
     * @throws IllegalArgumentException naming the argument and the table
     */
    static void checkAtStart(SyncSettings settings, List<CdcSchema> tables) {
        Set<String> names = new LinkedHashSet<>();
        for (CdcSchema schema : tables) {
            List<String> primaryKeys = settings.primaryKeys().isEmpty() ? schema.primaryKeys() : settings.primaryKeys();
            if (!settings.includes(schema.table()) || primaryKeys.isEmpty()) {
                continue;
            }
            try {
                names.addAll(of(settings, schema, primaryKeys, null).names());
            } catch (IncompatibleSchemaException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        if (settings.singleTable() && !names.isEmpty()) {
            for (String key : settings.partitionKeys()) {
                if (!names.contains(key)) {
                    throw new IllegalArgumentException("Cannot sync into table " + settings.target(null).fullName()
                            + ": partition key '" + key + "' (--partition_keys) is no column of the source tables or "
                            + "computed or metadata column (columns: " + names + ")");
                }
            }
        }
    }

    List<SchemaEvolutionRules.Column> columns() {
        return columns;
    }

    List<String> names() {
        List<String> names = new ArrayList<>();
        columns.forEach(c -> names.add(c.name()));
        return names;
    }

    /** Where a column's value is in {@link #values}' result; -1 if the source has no such column. */
    int indexOf(String name) {
        int index = source.indexOf(name);
        return index >= 0 || extra == null ? index : extra.indexOf(name);
    }

    /**
     * A row image of {@code record} with the computed and metadata columns' values appended.
     *
     * @throws IllegalArgumentException if a computed column has no value for it
     */
    Object[] values(Object[] image, CdcRecord record) {
        return extra == null ? image : extra.extend(image, record);
    }
}
