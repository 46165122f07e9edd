package dev.streamhouse.flink.catalog.alter;

import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.storage.options.OptionRegistry;
import dev.streamhouse.storage.schema.SchemaChange;

import dev.streamhouse.flink.catalog.ComputedColumnOptions;
import dev.streamhouse.flink.catalog.WatermarkOptions;
import dev.streamhouse.storage.types.DataType;

import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Translates the {@link TableChange}s Flink derives from an {@code ALTER TABLE} statement into
 * {@link SchemaChange}s, in order.
 *
 * <ul>
 *   <li>{@code SET ('k'='v')} / {@code RESET ('k')}: option changes; the key {@code comment} sets or
 *       removes the table comment. Immutable options (see {@link OptionRegistry#isImmutable}) are refused, and so
 *       are the {@code schema.*} keys holding computed columns and the watermark.
 *   <li>{@code ADD col [FIRST | AFTER c]}, {@code DROP col}, {@code RENAME a TO b} of physical columns.
 *   <li>{@code MODIFY col ...}: a type change, a separate nullability change, a comment change and a
 *       position change, whichever apply.
 *   <li>{@code ADD / MODIFY / DROP WATERMARK}: the options holding the watermark
 *       ({@link WatermarkOptions}).
 *   <li>Computed columns live in options ({@link ComputedColumnOptions}) at positions that count all
 *       columns, so any statement can move them. Changes to computed columns themselves (add, drop,
 *       rename, comment, new expression, position) reach no physical column, and after the physical
 *       changes the stored computed-column options are rewritten to match the altered table Flink
 *       resolved, as Apache Paimon's Flink catalog does. Flink itself refuses to drop or rename a
 *       column a computed column uses.
 * </ul>
 *
 * <p>Refused, with a {@link CatalogException} naming the table and what was asked: metadata columns,
 * turning a physical column into a computed one or back, placing a physical column {@code AFTER} a
 * computed one (the schema file orders physical columns only), primary-key changes,
 * {@code DISTRIBUTED BY}, materialized-table changes and any other change kind. Partition keys cannot
 * be changed by any Flink statement, and the option {@code partition} is immutable.
 */
public final class TableChangeTranslator {
    /** The option key Flink users set to change the table comment. */
    public static final String COMMENT_OPTION = "comment";

    private final String tableName;

    /** @param tableName the full table name, for messages */
    public TableChangeTranslator(String tableName) {
        this.tableName = tableName;
    }

    /** The changes for a table that has and gets no computed columns. */
    public List<SchemaChange> translate(List<TableChange> changes) {
        return translate(changes, Map.of(), null);
    }

    /**
     * The changes, followed by those rewriting the stored computed-column options to describe
     * {@code newSchema}.
     *
     * @param storedOptions the table's stored options before the change
     * @param newSchema the table as Flink resolved it after the change, or null if Flink gave none
     *     (then the table must have and get no computed columns)
     */
    public List<SchemaChange> translate(List<TableChange> changes, Map<String, String> storedOptions,
            ResolvedSchema newSchema) {
        Map<String, String> storedColumns = new TreeMap<>(storedOptions);
        storedColumns.keySet().removeIf(key -> !ComputedColumnOptions.isColumnKey(key));
        Set<String> computed = new HashSet<>();
        storedColumns.forEach((key, value) -> {
            if (key.endsWith(".name")) {
                computed.add(value);
            }
        });
        if (newSchema != null) {
            newSchema.getColumns().stream().filter(c -> c instanceof Column.ComputedColumn)
                    .forEach(c -> computed.add(c.getName()));
        }
        List<SchemaChange> out = new ArrayList<>();
        for (TableChange change : changes) {
            translate(change, computed, out);
        }
        if (newSchema == null) {
            if (!computed.isEmpty()) {
                throw refused("its computed columns " + computed + " cannot be re-stored without the altered "
                        + "table's resolved schema, which Flink did not pass");
            }
            return out;
        }
        Map<String, String> newColumns;
        try {
            newColumns = ComputedColumnOptions.toOptions(newSchema);
        } catch (IllegalArgumentException e) {
            throw refused(e.getMessage());
        }
        storedColumns.forEach((key, value) -> {
            if (!newColumns.containsKey(key)) {
                out.add(new SchemaChange.RemoveOption(key));
            }
        });
        newColumns.forEach((key, value) -> {
            if (!value.equals(storedColumns.get(key))) {
                out.add(new SchemaChange.SetOption(key, value));
            }
        });
        return out;
    }

    /**
     * @param computed the names of the computed columns before and after the statement; changes that
     *     touch only a computed column add its name
     */
    private void translate(TableChange change, Set<String> computed, List<SchemaChange> out) {
        if (change instanceof TableChange.SetOption) {
            TableChange.SetOption set = (TableChange.SetOption) change;
            out.add(setOption(set.getKey(), set.getValue()));
        } else if (change instanceof TableChange.ResetOption) {
            out.add(resetOption(((TableChange.ResetOption) change).getKey()));
        } else if (change instanceof TableChange.AddColumn) {
            TableChange.AddColumn add = (TableChange.AddColumn) change;
            Column column = add.getColumn();
            if (column instanceof Column.ComputedColumn) {
                computed.add(column.getName()); // options only
                return;
            }
            requirePhysical(column, "add");
            out.add(new SchemaChange.AddColumn(column.getName(), storageType(column), column.getComment().orElse(null),
                    move(column.getName(), add.getPosition(), computed)));
        } else if (change instanceof TableChange.DropColumn) {
            String name = ((TableChange.DropColumn) change).getColumnName();
            if (!computed.contains(name)) {
                out.add(new SchemaChange.DropColumn(name));
            }
        } else if (change instanceof TableChange.ModifyColumn) {
            translateModify((TableChange.ModifyColumn) change, computed, out);
        } else if (change instanceof TableChange.AddWatermark) {
            setWatermark(((TableChange.AddWatermark) change).getWatermark(), out);
        } else if (change instanceof TableChange.ModifyWatermark) {
            setWatermark(((TableChange.ModifyWatermark) change).getNewWatermark(), out);
        } else if (change instanceof TableChange.DropWatermark) {
            for (String key : WatermarkOptions.KEYS) {
                out.add(new SchemaChange.RemoveOption(key));
            }
        } else if (change instanceof TableChange.AddUniqueConstraint
                || change instanceof TableChange.ModifyUniqueConstraint
                || change instanceof TableChange.DropConstraint) {
            throw refused("altering the primary key is not supported (" + change + "); create a new table with "
                    + "the wanted primary key and copy the data");
        } else if (change instanceof TableChange.AddDistribution || change instanceof TableChange.ModifyDistribution
                || change instanceof TableChange.DropDistribution) {
            throw refused("DISTRIBUTED BY is not supported (" + change + "); set the options 'bucket' and "
                    + "'bucket-key' instead");
        } else {
            throw refused("the change " + change + " is not supported");
        }
    }

    /** A watermark is stored as options ({@link WatermarkOptions}). */
    private static void setWatermark(WatermarkSpec watermark, List<SchemaChange> out) {
        WatermarkOptions.toOptions(watermark).forEach((k, v) -> out.add(new SchemaChange.SetOption(k, v)));
    }

    private SchemaChange setOption(String key, String value) {
        if (key.equals(COMMENT_OPTION)) {
            return new SchemaChange.UpdateComment(value);
        }
        requireMutable(key, "set");
        return new SchemaChange.SetOption(key, value);
    }

    private SchemaChange resetOption(String key) {
        if (key.equals(COMMENT_OPTION)) {
            return new SchemaChange.UpdateComment(null);
        }
        requireMutable(key, "reset");
        return new SchemaChange.RemoveOption(key);
    }

    private void requireMutable(String key, String verb) {
        if (key.equals("connector")) {
            throw refused("option 'connector' cannot be " + verb + "; tables of a paimon catalog are always paimon "
                    + "tables");
        }
        if (ComputedColumnOptions.isColumnKey(key)) {
            throw refused("option '" + key + "' cannot be " + verb + ": it holds a computed column; change computed "
                    + "columns with ALTER TABLE ADD, MODIFY, RENAME or DROP");
        }
        if (WatermarkOptions.isWatermarkKey(key)) {
            throw refused("option '" + key + "' cannot be " + verb + ": it holds the watermark; change it with ALTER "
                    + "TABLE ADD, MODIFY or DROP WATERMARK");
        }
        if (OptionRegistry.instance().isImmutable(key)) {
            throw refused("option '" + key + "' cannot be " + verb + " after the table is created, because data "
                    + "already written depends on it; create a new table with the wanted value and copy the data");
        }
    }

    private void translateModify(TableChange.ModifyColumn modify, Set<String> computed, List<SchemaChange> out) {
        Column oldColumn = modify.getOldColumn();
        String name = oldColumn.getName();
        if (oldColumn instanceof Column.ComputedColumn && !(modify instanceof TableChange.ModifyPhysicalColumnType)) {
            // A new name, comment, position or expression of a computed column: options only.
            requireSameKind(oldColumn, modify.getNewColumn());
            computed.add(name);
            return;
        }
        if (modify instanceof TableChange.ModifyColumnName) {
            out.add(new SchemaChange.RenameColumn(name, ((TableChange.ModifyColumnName) modify).getNewColumnName()));
        } else if (modify instanceof TableChange.ModifyColumnComment) {
            out.add(new SchemaChange.UpdateColumnComment(name,
                    ((TableChange.ModifyColumnComment) modify).getNewComment()));
        } else if (modify instanceof TableChange.ModifyColumnPosition) {
            out.add(new SchemaChange.UpdateColumnPosition(name,
                    move(name, ((TableChange.ModifyColumnPosition) modify).getNewPosition(), computed)));
        } else if (modify instanceof TableChange.ModifyPhysicalColumnType) {
            translateTypeChange(oldColumn, ((TableChange.ModifyPhysicalColumnType) modify).getNewType()
                    .getLogicalType(), out);
        } else {
            // Flink uses the plain ModifyColumn only to change what kind of column it is.
            requireSameKind(oldColumn, modify.getNewColumn());
            requirePhysical(modify.getNewColumn(), "modify");
            requirePhysical(oldColumn, "modify");
            throw refused("the change " + modify + " is not supported");
        }
    }

    private void translateTypeChange(Column oldColumn, LogicalType newType, List<SchemaChange> out) {
        requirePhysical(oldColumn, "modify");
        String name = oldColumn.getName();
        LogicalType oldType = oldColumn.getDataType().getLogicalType();
        if (!oldType.copy(true).equals(newType.copy(true))) {
            DataType converted = FlinkTypes.toStorageType(newType.copy(oldType.isNullable()), name);
            out.add(new SchemaChange.UpdateColumnType(name, converted));
        }
        if (oldType.isNullable() != newType.isNullable()) {
            out.add(new SchemaChange.UpdateColumnNullability(name, newType.isNullable()));
        }
    }

    private DataType storageType(Column column) {
        return FlinkTypes.toStorageType(column.getDataType().getLogicalType(), column.getName());
    }

    private void requireSameKind(Column oldColumn, Column newColumn) {
        if (oldColumn instanceof Column.ComputedColumn && newColumn.isPhysical()) {
            throw refused("cannot turn computed column '" + oldColumn.getName() + "' into the physical column "
                    + newColumn.asSummaryString() + "; DROP the computed column and ADD a physical one instead");
        }
        if (oldColumn.isPhysical() && newColumn instanceof Column.ComputedColumn) {
            throw refused("cannot turn physical column '" + oldColumn.getName() + "' into the computed column "
                    + newColumn.asSummaryString() + ": its stored data would be lost; DROP the column and ADD the "
                    + "computed column instead");
        }
    }

    private void requirePhysical(Column column, String verb) {
        if (column instanceof Column.ComputedColumn) {
            throw refused("cannot " + verb + " computed column '" + column.getName() + "' ("
                    + column.asSummaryString() + ") as a physical column");
        }
        if (column instanceof Column.MetadataColumn) {
            throw refused("cannot " + verb + " metadata column '" + column.getName() + "' ("
                    + column.asSummaryString() + "); tables of this catalog have no metadata columns");
        }
    }

    /** Where physical column {@code column} goes; {@code AFTER} a computed column has no place among physical ones. */
    private SchemaChange.Move move(String column, TableChange.ColumnPosition position, Set<String> computed) {
        if (position == null) {
            return SchemaChange.Move.last();
        }
        if (position instanceof TableChange.After) {
            String reference = ((TableChange.After) position).column();
            if (computed.contains(reference)) {
                throw refused("cannot place column '" + column + "' AFTER computed column '" + reference + "': the "
                        + "table stores the order of physical columns only; name a physical column in AFTER, or "
                        + "use FIRST");
            }
            return SchemaChange.Move.after(reference);
        }
        return SchemaChange.Move.first();
    }

    private CatalogException refused(String why) {
        return new CatalogException("Cannot alter table " + tableName + ": " + why);
    }
}
