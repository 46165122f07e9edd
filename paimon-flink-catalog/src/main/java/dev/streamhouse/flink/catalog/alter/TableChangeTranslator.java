package dev.streamhouse.flink.catalog.alter;

import dev.streamhouse.storage.schema.SchemaChange;

import dev.streamhouse.flink.catalog.FlinkTypeConverter;
import dev.streamhouse.flink.catalog.WatermarkOptions;
import dev.streamhouse.storage.types.DataType;

import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.List;

/**
 * Translates the {@link TableChange}s Flink derives from an {@code ALTER TABLE} statement into
 * {@link SchemaChange}s, in order.
 *
 * <ul>
 *   <li>{@code SET ('k'='v')} / {@code RESET ('k')}: option changes; the key {@code comment} sets or
 *       removes the table comment. Immutable options (see {@link ImmutableOptions}) are refused.
 *   <li>{@code ADD col [FIRST | AFTER c]}, {@code DROP col}, {@code RENAME a TO b}.
 *   <li>{@code MODIFY col ...}: a type change, a separate nullability change, a comment change and a
 *       position change, whichever apply.
 *   <li>{@code ADD / MODIFY / DROP WATERMARK}: the options holding the watermark
 *       ({@link WatermarkOptions}).
 * </ul>
 *
 * <p>Refused, with a {@link CatalogException} naming the table and what was asked: computed and
 * metadata columns, primary-key changes, {@code DISTRIBUTED BY}, materialized-table
 * changes and any other change kind. Partition keys cannot be changed by any Flink statement, and
 * the option {@code partition} is immutable.
 */
public final class TableChangeTranslator {
    /** The option key Flink users set to change the table comment. */
    public static final String COMMENT_OPTION = "comment";

    private final String tableName;

    /** @param tableName the full table name, for messages */
    public TableChangeTranslator(String tableName) {
        this.tableName = tableName;
    }

    public List<SchemaChange> translate(List<TableChange> changes) {
        List<SchemaChange> out = new ArrayList<>();
        for (TableChange change : changes) {
            translate(change, out);
        }
        return out;
    }

    private void translate(TableChange change, List<SchemaChange> out) {
        if (change instanceof TableChange.SetOption) {
            TableChange.SetOption set = (TableChange.SetOption) change;
            out.add(setOption(set.getKey(), set.getValue()));
        } else if (change instanceof TableChange.ResetOption) {
            out.add(resetOption(((TableChange.ResetOption) change).getKey()));
        } else if (change instanceof TableChange.AddColumn) {
            TableChange.AddColumn add = (TableChange.AddColumn) change;
            Column column = add.getColumn();
            requirePhysical(column, "add");
            out.add(new SchemaChange.AddColumn(column.getName(), storageType(column), column.getComment().orElse(null),
                    move(add.getPosition())));
        } else if (change instanceof TableChange.DropColumn) {
            out.add(new SchemaChange.DropColumn(((TableChange.DropColumn) change).getColumnName()));
        } else if (change instanceof TableChange.ModifyColumn) {
            translateModify((TableChange.ModifyColumn) change, out);
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
        if (ImmutableOptions.isImmutable(key)) {
            throw refused("option '" + key + "' cannot be " + verb + " after the table is created, because data "
                    + "already written depends on it; create a new table with the wanted value and copy the data");
        }
    }

    private void translateModify(TableChange.ModifyColumn modify, List<SchemaChange> out) {
        Column oldColumn = modify.getOldColumn();
        String name = oldColumn.getName();
        if (modify instanceof TableChange.ModifyColumnName) {
            out.add(new SchemaChange.RenameColumn(name, ((TableChange.ModifyColumnName) modify).getNewColumnName()));
        } else if (modify instanceof TableChange.ModifyColumnComment) {
            out.add(new SchemaChange.UpdateColumnComment(name,
                    ((TableChange.ModifyColumnComment) modify).getNewComment()));
        } else if (modify instanceof TableChange.ModifyColumnPosition) {
            out.add(new SchemaChange.UpdateColumnPosition(name,
                    move(((TableChange.ModifyColumnPosition) modify).getNewPosition())));
        } else if (modify instanceof TableChange.ModifyPhysicalColumnType) {
            translateTypeChange(oldColumn, ((TableChange.ModifyPhysicalColumnType) modify).getNewType()
                    .getLogicalType(), out);
        } else {
            // Flink uses the plain ModifyColumn only to change what kind of column it is.
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
            DataType converted = FlinkTypeConverter.toStorageType(newType.copy(oldType.isNullable()), name);
            out.add(new SchemaChange.UpdateColumnType(name, converted));
        }
        if (oldType.isNullable() != newType.isNullable()) {
            out.add(new SchemaChange.UpdateColumnNullability(name, newType.isNullable()));
        }
    }

    private DataType storageType(Column column) {
        return FlinkTypeConverter.toStorageType(column.getDataType().getLogicalType(), column.getName());
    }

    private void requirePhysical(Column column, String verb) {
        if (column instanceof Column.ComputedColumn) {
            throw refused("cannot " + verb + " computed column '" + column.getName() + "' ("
                    + column.asSummaryString() + "); tables of this catalog store physical columns only");
        }
        if (column instanceof Column.MetadataColumn) {
            throw refused("cannot " + verb + " metadata column '" + column.getName() + "' ("
                    + column.asSummaryString() + "); tables of this catalog have no metadata columns");
        }
    }

    private static SchemaChange.Move move(TableChange.ColumnPosition position) {
        if (position == null) {
            return SchemaChange.Move.last();
        }
        if (position instanceof TableChange.After) {
            return SchemaChange.Move.after(((TableChange.After) position).column());
        }
        return SchemaChange.Move.first();
    }

    private CatalogException refused(String why) {
        return new CatalogException("Cannot alter table " + tableName + ": " + why);
    }
}
