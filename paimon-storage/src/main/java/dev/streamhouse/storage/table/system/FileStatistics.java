package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * A data file's value statistics per column of the current schema, as {@code t$files} shows them:
 * maps sorted by column name, a column the file has no statistics for (added later, or not
 * collected) mapped to null. A file written under an older schema is matched to the current
 * columns by field id, so renamed columns keep their statistics.
 */
final class FileStatistics {
    private final List<DataField> tableFields;
    private final LongFunction<TableSchema> schemas;

    /**
     * @param tableFields the columns to show, those of the current schema
     * @param schemas the schema a file was written with, by id
     */
    FileStatistics(List<DataField> tableFields, LongFunction<TableSchema> schemas) {
        this.tableFields = tableFields;
        this.schemas = schemas;
    }

    /** Null counts, minimums and maximums of one file. */
    record Maps(Map<String, Long> nullCounts, Map<String, String> minValues, Map<String, String> maxValues) {}

    Maps of(DataFileMeta file) {
        Map<Integer, StatsColumn> statsColumns = statsColumnsById(file);
        SimpleStats stats = file.valueStats();
        Maps out = new Maps(new TreeMap<>(), new TreeMap<>(), new TreeMap<>());
        for (DataField column : tableFields) {
            StatsColumn statsColumn = statsColumns.get(column.id());
            if (statsColumn == null) {
                out.nullCounts().put(column.name(), null);
                out.minValues().put(column.name(), null);
                out.maxValues().put(column.name(), null);
                continue;
            }
            int pos = statsColumn.position();
            out.nullCounts().put(column.name(), nullCount(stats.nullCounts(), pos));
            out.minValues().put(column.name(), value(stats.minValues(), pos, statsColumn.type()));
            out.maxValues().put(column.name(), value(stats.maxValues(), pos, statsColumn.type()));
        }
        return out;
    }

    /** Where a column's statistics are in a file's statistics rows, and their type. */
    private record StatsColumn(int position, DataType type) {}

    /**
     * The file's statistics columns by field id: all columns of the file's schema, or those named by
     * {@code valueStatsCols} (names of the file's schema) in that order.
     */
    private Map<Integer, StatsColumn> statsColumnsById(DataFileMeta file) {
        TableSchema fileSchema = schemas.apply(file.schemaId());
        RowType fileRow = fileSchema.rowType();
        List<String> names = file.valueStatsCols() == null ? fileRow.fieldNames() : file.valueStatsCols();
        Map<Integer, StatsColumn> out = new HashMap<>();
        for (int pos = 0; pos < names.size(); pos++) {
            int index = fileRow.fieldIndex(names.get(pos));
            if (index >= 0) {
                out.put(fileRow.field(index).id(), new StatsColumn(pos, fileRow.typeAt(index)));
            }
        }
        return out;
    }

    /** The key type of a file's min/max key: its schema's primary key without partition columns. */
    RowType keyType(DataFileMeta file) {
        TableSchema fileSchema = schemas.apply(file.schemaId());
        List<String> keys = fileSchema.trimmedPrimaryKeys();
        return keys.isEmpty() ? fileSchema.rowType() : fileSchema.rowType().project(keys);
    }

    private static Long nullCount(Long[] nullCounts, int pos) {
        return nullCounts == null || pos >= nullCounts.length ? null : nullCounts[pos];
    }

    private static String value(BinaryRow values, int pos, DataType type) {
        if (pos >= values.arity()) {
            return null;
        }
        return MetadataStrings.internalString(InternalRowUtils.fieldGetter(type, pos).get(values));
    }
}
