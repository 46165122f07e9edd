package dev.streamhouse.e2e.oracle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A neutral table description that both Apache Paimon's API ({@link PaimonOracle#createTable}) and
 * ours can turn into the same table: columns as (name, Paimon type string), partition keys, primary
 * keys and table options. Immutable; the {@code with*} methods return copies.
 *
 * <p>Type strings use Paimon's SQL spelling and are parsed by {@link TypeStrings}, e.g. {@code INT},
 * {@code DECIMAL(38, 10)}, {@code TIMESTAMP(6) WITH LOCAL TIME ZONE}, {@code MAP<STRING, BIGINT>},
 * {@code ROW<x INT, y STRING>}, with an optional {@code NOT NULL}.
 */
public final class TableSpec {

    /** A column: its name and its Paimon type string. */
    public record Column(String name, String type) {
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }

        /** The type parsed into Paimon's type system. */
        public org.apache.paimon.types.DataType paimonType() {
            return TypeStrings.parse(type);
        }
    }

    private final List<Column> columns;
    private final List<String> partitionKeys;
    private final List<String> primaryKeys;
    private final Map<String, String> options;

    private TableSpec(
            List<Column> columns, List<String> partitionKeys, List<String> primaryKeys, Map<String, String> options) {
        this.columns = List.copyOf(columns);
        this.partitionKeys = List.copyOf(partitionKeys);
        this.primaryKeys = List.copyOf(primaryKeys);
        this.options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        List<String> names = columnNames();
        for (String k : partitionKeys) {
            require(names.contains(k), "partition key '" + k + "' is not a column of " + names);
        }
        for (String k : primaryKeys) {
            require(names.contains(k), "primary key '" + k + "' is not a column of " + names);
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException("Cannot describe table: " + message);
        }
    }

    /** A table with these columns, no partitioning, no primary key, no options. */
    public static TableSpec of(List<Column> columns) {
        return new TableSpec(columns, List.of(), List.of(), Map.of());
    }

    /** A table with these columns; arguments alternate name, type, name, type, .... */
    public static TableSpec of(String... nameTypePairs) {
        require(nameTypePairs.length % 2 == 0, "odd number of name/type arguments");
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < nameTypePairs.length; i += 2) {
            cols.add(new Column(nameTypePairs[i], nameTypePairs[i + 1]));
        }
        return of(cols);
    }

    public TableSpec withPartitionKeys(String... keys) {
        return new TableSpec(columns, List.of(keys), primaryKeys, options);
    }

    public TableSpec withPrimaryKeys(String... keys) {
        return new TableSpec(columns, partitionKeys, List.of(keys), options);
    }

    /** A copy with this option added (or replaced). */
    public TableSpec withOption(String key, String value) {
        Map<String, String> copy = new LinkedHashMap<>(options);
        copy.put(key, value);
        return new TableSpec(columns, partitionKeys, primaryKeys, copy);
    }

    public List<Column> columns() {
        return columns;
    }

    public List<String> columnNames() {
        return columns.stream().map(Column::name).collect(Collectors.toList());
    }

    public List<String> partitionKeys() {
        return partitionKeys;
    }

    public List<String> primaryKeys() {
        return primaryKeys;
    }

    public Map<String, String> options() {
        return options;
    }

    public int indexOf(String column) {
        int i = columnNames().indexOf(column);
        require(i >= 0, "no column '" + column + "' in " + columnNames());
        return i;
    }

    /**
     * The row type in Paimon's type system, ids 0..n-1 at top level (nested ids are not meaningful
     * here; Paimon re-assigns them when a table is created). Primary key columns are NOT NULL, as
     * Paimon makes them.
     */
    public org.apache.paimon.types.RowType paimonRowType() {
        List<org.apache.paimon.types.DataField> fields = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            org.apache.paimon.types.DataType t = c.paimonType();
            if (primaryKeys.contains(c.name())) {
                t = t.copy(false);
            }
            fields.add(new org.apache.paimon.types.DataField(i, c.name(), t));
        }
        return new org.apache.paimon.types.RowType(fields);
    }

    /** The same table with only the named columns, in that order (keys and options dropped). */
    public TableSpec project(List<String> names) {
        List<Column> cols = new ArrayList<>();
        for (String n : names) {
            cols.add(columns.get(indexOf(n)));
        }
        return of(cols);
    }

    @Override
    public String toString() {
        return "TableSpec{columns=" + columns + ", partitionKeys=" + partitionKeys + ", primaryKeys="
                + primaryKeys + ", options=" + options + "}";
    }
}
