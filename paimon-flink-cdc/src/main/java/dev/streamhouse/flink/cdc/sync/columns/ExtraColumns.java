package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The columns a sync adds to every target table after the source's columns, as Apache Paimon's
 * actions do: the {@code --computed_column}s, in an order where each comes after the computed column
 * it reads (otherwise as given), then the {@code --metadata_column}s as given. Names are unique; a
 * computed column reads a source column or another computed column, and computed columns do not read
 * each other in a cycle.
 * {@link #bind} fits them to one source schema.
 */
public final class ExtraColumns implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ExtraColumns NONE = new ExtraColumns(List.of(), List.of());

    private final List<ComputedColumn> computed;
    private final List<MetadataColumn> metadata;

    private ExtraColumns(List<ComputedColumn> computed, List<MetadataColumn> metadata) {
        this.computed = List.copyOf(computed);
        this.metadata = List.copyOf(metadata);
    }

    public static ExtraColumns none() {
        return NONE;
    }

    /**
     * @throws IllegalArgumentException if two columns have one name or computed columns read each other
     */
    public static ExtraColumns of(List<ComputedColumn> computed, List<MetadataColumn> metadata) {
        Set<String> names = new LinkedHashSet<>();
        for (ComputedColumn c : computed) {
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("Two --computed_column arguments make column '" + c.name() + "'");
            }
        }
        for (MetadataColumn m : metadata) {
            if (names.contains(m.columnName())) {
                throw new IllegalArgumentException("--metadata_column " + m.columnName()
                        + " and a --computed_column both make column '" + m.columnName() + "'");
            }
        }
        return new ExtraColumns(ordered(computed), metadata);
    }

    /** Computed columns after the computed columns they read, otherwise in the given order. */
    private static List<ComputedColumn> ordered(List<ComputedColumn> computed) {
        Map<String, ComputedColumn> byName = new HashMap<>();
        computed.forEach(c -> byName.put(c.name(), c));
        List<ComputedColumn> pending = new ArrayList<>(computed);
        List<ComputedColumn> ordered = new ArrayList<>();
        Set<String> placed = new LinkedHashSet<>();
        while (!pending.isEmpty()) {
            ComputedColumn next = null;
            for (ComputedColumn c : pending) {
                // A column reading its own name reads a source column (binding refuses the clash).
                if (c.input() == null || c.input().equals(c.name()) || !byName.containsKey(c.input())
                        || placed.contains(c.input())) {
                    next = c;
                    break;
                }
            }
            if (next == null) {
                throw new IllegalArgumentException("The --computed_column arguments " + pending
                        .stream().map(c -> "'" + c.argument() + "'").toList() + " read each other in a cycle");
            }
            pending.remove(next);
            placed.add(next.name());
            ordered.add(next);
        }
        return ordered;
    }

    public boolean isEmpty() {
        return computed.isEmpty() && metadata.isEmpty();
    }

    /** The computed columns in the order they are computed and added. */
    public List<ComputedColumn> computed() {
        return computed;
    }

    public List<MetadataColumn> metadata() {
        return metadata;
    }

    /** The names of the columns, computed then metadata. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        computed.forEach(c -> names.add(c.name()));
        metadata.forEach(m -> names.add(m.columnName()));
        return names;
    }

    /**
     * The columns fitted to one source table's schema: each computed column's function bound to the
     * type of the column it reads. A computed column whose input column the source no longer has
     * (dropped at the source) is NULL from then on if the target table already has it.
     *
     * @param sourceTypes the target-table types of the source's columns, in the schema's order
     * @param primaryKeys the target's primary key (its computed columns become NOT NULL)
     * @param table the target table's current row type, null before it exists
     * @param zone the time zone in which temporal functions read TIMESTAMP_LTZ values
     * @throws IllegalArgumentException naming the argument and the source table if a column is already
     *     a source column, reads a column the source lacks or a type its function does not take
     */
    public BoundColumns bind(CdcSchema source, List<DataType> sourceTypes, Set<String> primaryKeys, RowType table,
            ZoneId zone) {
        int arity = source.columns().size();
        Map<String, InputColumn> inputs = new HashMap<>();
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < arity; i++) {
            CdcColumn c = source.columns().get(i);
            inputs.put(c.name(), new InputColumn(c.name(), sourceTypes.get(i), sourceDigits(c)));
            positions.put(c.name(), i);
        }
        for (String name : names()) {
            if (positions.containsKey(name)) {
                throw new IllegalArgumentException("Cannot add column '" + name + "' (" + argument(name) + ") to the "
                        + "rows of source table " + source.table() + ": the source has a column of that name; "
                        + "give the added column another name");
            }
        }
        List<BoundColumns.Column> columns = new ArrayList<>();
        for (ComputedColumn c : computed) {
            int input = -1;
            Binding binding;
            if (!c.function().takesColumn()) {
                binding = c.function().bind(null, c.literals(), zone);
            } else if (!inputs.containsKey(c.input())) {
                int existing = table == null ? -1 : table.fieldIndex(c.name());
                if (existing < 0) {
                    throw new IllegalArgumentException("Cannot compute --computed_column '" + c.argument()
                            + "' for source table " + source.table() + ": it has no column '" + c.input()
                            + "' (its columns: " + source.columnNames() + ")");
                }
                binding = new Binding(table.typeAt(existing), null);
            } else {
                input = positions.get(c.input());
                try {
                    binding = c.function().bind(inputs.get(c.input()), c.literals(), zone);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("Cannot compute --computed_column '" + c.argument()
                            + "' for source table " + source.table() + ": " + e.getMessage(), e);
                }
            }
            DataType type = primaryKeys.contains(c.name()) ? binding.type().notNull() : binding.type();
            int position = arity + columns.size();
            columns.add(new BoundColumns.Column(c.name(), type, c, input, binding.evaluation(), null));
            inputs.put(c.name(), new InputColumn(c.name(), type, digits(type)));
            positions.put(c.name(), position);
        }
        for (MetadataColumn m : metadata) {
            columns.add(new BoundColumns.Column(m.columnName(), m.type(), null, -1, null, m));
        }
        return new BoundColumns(source.table(), arity, columns);
    }

    private String argument(String name) {
        for (ComputedColumn c : computed) {
            if (c.name().equals(name)) {
                return "--computed_column '" + c.argument() + "'";
            }
        }
        return "--metadata_column " + name;
    }

    /** Fractional digits of a source column's date-times as Paimon's text shows them. */
    private static int sourceDigits(CdcColumn column) {
        return column.type().name().equals("DATETIME") && column.type().length() > 3 ? 6 : 3;
    }

    private static int digits(DataType type) {
        if (type.root() == DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
            return ((TimestampType) type).precision() > 3 ? 6 : 3;
        }
        return 3;
    }

    @Override
    public String toString() {
        return names().toString();
    }
}
