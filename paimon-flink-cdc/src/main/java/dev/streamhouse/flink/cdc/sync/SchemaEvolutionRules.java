package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.types.BinaryType;
import dev.streamhouse.storage.types.CharType;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimeType;
import dev.streamhouse.storage.types.TimestampType;
import dev.streamhouse.storage.types.VarBinaryType;
import dev.streamhouse.storage.types.VarCharType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How a synced table follows its source's schema, by Apache Paimon's rules for CDC ingestion: the
 * table's schema is compared with the source's (not the DDL text), and
 * <ul>
 *   <li>a new source column is added to the table, nullable, at the end (a renamed column is a new
 *       one; the old stays);
 *   <li>a source column that is gone stays in the table (new rows hold NULL);
 *   <li>a column type changes only to a wider one (CONVERT): longer CHAR/VARCHAR/BINARY/VARBINARY,
 *       TINYINT to SMALLINT to INT to BIGINT, FLOAT to DOUBLE, a DECIMAL whose precision or scale
 *       grows (unless {@code decimal-no-change}), more fractional digits of TIME and TIMESTAMP, and
 *       another type to a string with {@code allow-non-string-to-string}; a narrower source type leaves
 *       the table's alone (IGNORE); any other change fails naming the table, the column and both
 *       types;
 *   <li>a NOT NULL column (not of the primary key) becomes nullable when the source's does; the
 *       opposite is ignored;
 *   <li>a changed column comment is taken over.
 * </ul>
 * Primary-key and partition columns never change type.
 */
final class SchemaEvolutionRules {
    private SchemaEvolutionRules() {}

    /** A source column as the table would have it: name, table type and comment. */
    record Column(String name, DataType type, String comment) {}

    /**
     * The changes that make {@code table} follow {@code source}; empty when none.
     *
     * @param fixed columns whose type must never change (primary and partition keys)
     * @throws IncompatibleSchemaException if a column changed in a way the rules refuse
     */
    static List<SchemaChange> changes(String tableName, RowType table, List<Column> source, Set<String> fixed,
            TypeMapping mapping) {
        List<SchemaChange> changes = new ArrayList<>();
        for (Column c : source) {
            DataField existing = find(table, c.name());
            if (existing == null) {
                changes.add(SchemaChange.addColumn(c.name(), c.type().nullable(), c.comment(), SchemaChange.Move.last()));
                continue;
            }
            DataType was = existing.type();
            DataType is = c.type();
            if (!was.equalsIgnoreNullable(is)) {
                Action action = fixed.contains(c.name()) ? Action.IGNORE : action(was, is, mapping);
                if (fixed.contains(c.name()) && !sameFamily(was, is)) {
                    throw incompatible(tableName, c.name(), was, is, "it is a primary-key or partition column");
                }
                if (action == Action.EXCEPTION) {
                    throw incompatible(tableName, c.name(), was, is, "only widening changes are followed");
                }
                if (action == Action.CONVERT) {
                    changes.add(SchemaChange.updateColumnType(c.name(), is.copy(was.isNullable())));
                }
            }
            if (!was.isNullable() && is.isNullable() && !fixed.contains(c.name())) {
                changes.add(SchemaChange.updateColumnNullability(c.name(), true));
            }
            if (c.comment() != null && !Objects.equals(c.comment(), existing.description())) {
                changes.add(SchemaChange.updateColumnComment(c.name(), c.comment()));
            }
        }
        return changes;
    }

    private static DataField find(RowType table, String name) {
        for (DataField f : table.fields()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    enum Action {
        CONVERT,
        IGNORE,
        EXCEPTION
    }

    static Action action(DataType was, DataType is, TypeMapping mapping) {
        DataTypeRoot a = was.root();
        DataTypeRoot b = is.root();
        if (isString(a) && isString(b)) {
            return widerOrIgnore(length(was), length(is), a != DataTypeRoot.CHAR || b == DataTypeRoot.CHAR
                    || length(is) >= length(was));
        }
        if (isBinary(a) && isBinary(b)) {
            return widerOrIgnore(length(was), length(is), true);
        }
        if (isString(b)) {
            return mapping.has(TypeMapping.Mode.ALLOW_NON_STRING_TO_STRING) ? Action.CONVERT : Action.EXCEPTION;
        }
        int integerA = integerRank(a);
        int integerB = integerRank(b);
        if (integerA > 0 && integerB > 0) {
            return integerB > integerA ? Action.CONVERT : Action.IGNORE;
        }
        if ((a == DataTypeRoot.FLOAT || a == DataTypeRoot.DOUBLE) && (b == DataTypeRoot.FLOAT || b == DataTypeRoot.DOUBLE)) {
            return b == DataTypeRoot.DOUBLE && a == DataTypeRoot.FLOAT ? Action.CONVERT : Action.IGNORE;
        }
        if (a == DataTypeRoot.DECIMAL && b == DataTypeRoot.DECIMAL) {
            DecimalType x = (DecimalType) was;
            DecimalType y = (DecimalType) is;
            if (mapping.has(TypeMapping.Mode.DECIMAL_NO_CHANGE)
                    || (y.precision() <= x.precision() && y.scale() <= x.scale())) {
                return Action.IGNORE;
            }
            return Action.CONVERT;
        }
        if (a == b && a == DataTypeRoot.TIME_WITHOUT_TIME_ZONE) {
            return ((TimeType) is).precision() > ((TimeType) was).precision() ? Action.CONVERT : Action.IGNORE;
        }
        if (a == b && (a == DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE || a == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE)) {
            return ((TimestampType) is).precision() > ((TimestampType) was).precision() ? Action.CONVERT : Action.IGNORE;
        }
        return Action.EXCEPTION;
    }

    private static Action widerOrIgnore(int was, int is, boolean allowed) {
        if (is <= was) {
            return Action.IGNORE;
        }
        return allowed ? Action.CONVERT : Action.EXCEPTION;
    }

    private static boolean sameFamily(DataType was, DataType is) {
        return was.root() == is.root() || (isString(was.root()) && isString(is.root()))
                || (integerRank(was.root()) > 0 && integerRank(is.root()) > 0);
    }

    private static boolean isString(DataTypeRoot r) {
        return r == DataTypeRoot.CHAR || r == DataTypeRoot.VARCHAR;
    }

    private static boolean isBinary(DataTypeRoot r) {
        return r == DataTypeRoot.BINARY || r == DataTypeRoot.VARBINARY;
    }

    private static int length(DataType t) {
        if (t instanceof CharType c) {
            return c.length();
        }
        if (t instanceof VarCharType v) {
            return v.length();
        }
        if (t instanceof BinaryType b) {
            return b.length();
        }
        if (t instanceof VarBinaryType v) {
            return v.length();
        }
        return Integer.MAX_VALUE;
    }

    private static int integerRank(DataTypeRoot r) {
        switch (r) {
            case TINYINT:
                return 1;
            case SMALLINT:
                return 2;
            case INTEGER:
                return 3;
            case BIGINT:
                return 4;
            default:
                return 0;
        }
    }

    private static IncompatibleSchemaException incompatible(String table, String column, DataType was, DataType is,
            String why) {
        return new IncompatibleSchemaException("Cannot follow the source of table " + table + ": column '" + column
                + "' changed from " + was.asSQLString() + " to " + is.asSQLString() + ", and " + why
                + " (Paimon's CDC schema evolution rules)");
    }
}
