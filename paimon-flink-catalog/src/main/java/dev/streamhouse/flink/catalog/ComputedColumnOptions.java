package dev.streamhouse.flink.catalog;

import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.UnresolvedUserDefinedType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A table's computed columns ({@code c AS expr}), kept in the table options under the keys Flink's
 * descriptor properties (and so Apache Paimon's Flink catalog) use, one group of keys per column:
 * <pre>
 * schema.N.name      = the column name
 * schema.N.data-type = the expression's type as serializable SQL, e.g. BIGINT or INT NOT NULL
 * schema.N.expr      = the expression as serializable SQL, e.g. EXTRACT(HOUR FROM `event_time`)
 * schema.N.comment   = the column comment, only if there is one
 * </pre>
 * {@code N} is the column's position, from 0, among all columns of the Flink schema, physical and
 * computed alike. The schema file holds only the physical columns, in order; they take the positions
 * no computed column takes. Engines that do not know these keys see the physical columns, and
 * Paimon's Flink catalog rebuilds the same computed columns. Flink sees them in the table's schema,
 * never these keys among the options. On reading, Flink derives each column's type from its
 * expression again; the stored type must parse but is not otherwise used (Paimon's catalog ignores
 * it too).
 *
 * <p>Paimon's catalog stores metadata columns in the same groups, with keys
 * {@code schema.N.metadata} and {@code schema.N.virtual}; this catalog writes none and refuses to
 * read them. Reading is strict: a group lacking a key, a position that is not a plain number or lies
 * beyond the last column, an unknown key, an unparsable type or a clashing name is an
 * {@link IllegalArgumentException} naming the table and the key, never a silently different schema.
 * The one exception is a group holding nothing but {@code schema.N.comment}: Paimon 1.3.1's catalog
 * leaves such a group behind when {@code ALTER TABLE} moves a computed column that has a comment, and
 * rebuilds no column from it; neither does this catalog, and its next {@code ALTER TABLE} removes it.
 */
public final class ComputedColumnOptions {
    static final String PREFIX = "schema.";
    static final String NAME = "name";
    static final String DATA_TYPE = "data-type";
    static final String EXPR = "expr";
    static final String COMMENT = "comment";
    private static final List<String> REQUIRED = List.of(NAME, DATA_TYPE, EXPR);
    /** The keys Paimon's catalog adds for a metadata column. */
    private static final Set<String> METADATA_ATTRIBUTES = Set.of("metadata", "virtual");
    private static final Pattern POSITION = Pattern.compile("0|[1-9][0-9]{0,8}");

    private ComputedColumnOptions() {}

    /** A computed column as stored: its position among all columns, name, SQL expression and comment. */
    record StoredColumn(int position, String name, String expression, String comment) {}

    /**
     * Whether {@code key} belongs to a stored column group, {@code schema.<digit>...}. The watermark's
     * {@code schema.watermark.*} keys do not.
     */
    public static boolean isColumnKey(String key) {
        return key.length() > PREFIX.length() && key.startsWith(PREFIX)
                && Character.isDigit(key.charAt(PREFIX.length()));
    }

    /** The options of {@code options} (a copy) without the stored column keys. */
    static Map<String, String> withoutColumns(Map<String, String> options) {
        Map<String, String> out = new HashMap<>(options);
        out.keySet().removeIf(ComputedColumnOptions::isColumnKey);
        return out;
    }

    /**
     * The options storing the computed columns of {@code schema}, at their positions in it.
     *
     * @throws IllegalArgumentException if a column's type has no serializable SQL form, naming the column
     */
    public static Map<String, String> toOptions(ResolvedSchema schema) {
        Map<String, String> out = new TreeMap<>();
        List<Column> columns = schema.getColumns();
        for (int position = 0; position < columns.size(); position++) {
            if (!(columns.get(position) instanceof Column.ComputedColumn)) {
                continue;
            }
            Column.ComputedColumn column = (Column.ComputedColumn) columns.get(position);
            String group = PREFIX + position + ".";
            out.put(group + NAME, column.getName());
            out.put(group + DATA_TYPE, serializableType(column));
            out.put(group + EXPR, column.getExpression().asSerializableString());
            column.getComment().ifPresent(comment -> out.put(group + COMMENT, comment));
        }
        return out;
    }

    private static String serializableType(Column column) {
        try {
            return column.getDataType().getLogicalType().asSerializableString();
        } catch (TableException noSqlForm) {
            throw new IllegalArgumentException("computed column '" + column.getName() + "' has type "
                    + column.getDataType() + ", which has no SQL text form to store; CAST the expression to a "
                    + "type that has one", noSqlForm);
        }
    }

    /**
     * The computed columns stored in {@code options}, by position.
     *
     * @param physicalNames the table's physical column names, in order
     * @param tableName the full table name, for messages
     * @throws IllegalArgumentException if the stored groups do not describe valid computed columns of
     *     this table; the message names the table and the offending key
     */
    static SortedMap<Integer, StoredColumn> read(Map<String, String> options, List<String> physicalNames,
            String tableName) {
        SortedMap<Integer, Map<String, String>> groups = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(options).entrySet()) {
            if (isColumnKey(e.getKey())) {
                addToGroup(groups, e.getKey(), e.getValue(), tableName);
            }
        }
        // Paimon 1.3.1 leaves a lone comment behind when ALTER TABLE moves a commented computed column.
        groups.values().removeIf(group -> group.keySet().equals(Set.of(COMMENT)));
        int columnCount = physicalNames.size() + groups.size();
        Set<String> names = new HashSet<>(physicalNames);
        SortedMap<Integer, StoredColumn> out = new TreeMap<>();
        for (Map.Entry<Integer, Map<String, String>> group : groups.entrySet()) {
            StoredColumn column = toColumn(group.getKey(), group.getValue(), tableName);
            if (column.position() >= columnCount) {
                throw unreadable(tableName, key(column.position(), NAME), "places computed column '"
                        + column.name() + "' at position " + column.position() + ", but the table has only "
                        + columnCount + " columns (" + physicalNames.size() + " physical, " + groups.size()
                        + " computed; positions count from 0)");
            }
            if (!names.add(column.name())) {
                throw unreadable(tableName, key(column.position(), NAME), "names computed column '"
                        + column.name() + "', but another column has that name (physical columns: "
                        + physicalNames + ")");
            }
            out.put(column.position(), column);
        }
        return out;
    }

    private static void addToGroup(SortedMap<Integer, Map<String, String>> groups, String key, String value,
            String tableName) {
        String rest = key.substring(PREFIX.length());
        int dot = rest.indexOf('.');
        String position = dot < 0 ? rest : rest.substring(0, dot);
        if (dot < 0 || !POSITION.matcher(position).matches()) {
            throw unreadable(tableName, key, "is not a computed column key: those have the form "
                    + "'schema.<position>.<key>', the position a plain number (0, 1, 2, ...)");
        }
        String attribute = rest.substring(dot + 1);
        if (METADATA_ATTRIBUTES.contains(attribute)) {
            throw unreadable(tableName, key, "declares a metadata column (as Apache Paimon's Flink catalog "
                    + "stores them), but tables of this catalog have no metadata columns; drop the column through "
                    + "Paimon's catalog, or remove the options '" + PREFIX + position + ".*'");
        }
        if (!REQUIRED.contains(attribute) && !attribute.equals(COMMENT)) {
            throw unreadable(tableName, key, "is not a computed column key: a computed column has the keys "
                    + String.join(", ", REQUIRED) + " and " + COMMENT);
        }
        groups.computeIfAbsent(Integer.parseInt(position), p -> new HashMap<>()).put(attribute, value);
    }

    private static StoredColumn toColumn(int position, Map<String, String> group, String tableName) {
        for (String attribute : REQUIRED) {
            String value = group.get(attribute);
            if (value == null || value.isBlank()) {
                throw unreadable(tableName, key(position, attribute), "is " + (value == null ? "missing" : "empty")
                        + ", but the computed column at position " + position + " needs "
                        + String.join(", ", keys(position, REQUIRED)) + "; set it, or remove the other '"
                        + PREFIX + position + ".*' options");
            }
        }
        String dataType = group.get(DATA_TYPE);
        String notAType = null;
        try {
            if (LogicalTypeParser.parse(dataType, ComputedColumnOptions.class.getClassLoader())
                    instanceof UnresolvedUserDefinedType) {
                notAType = "it names no built-in type";
            }
        } catch (ValidationException e) {
            notAType = e.getMessage();
        }
        if (notAType != null) {
            throw unreadable(tableName, key(position, DATA_TYPE), "holds '" + dataType + "', which is not a SQL "
                    + "type: " + notAType);
        }
        return new StoredColumn(position, group.get(NAME), group.get(EXPR), group.get(COMMENT));
    }

    private static String key(int position, String attribute) {
        return PREFIX + position + "." + attribute;
    }

    private static List<String> keys(int position, Collection<String> attributes) {
        return attributes.stream().map(a -> "'" + key(position, a) + "'").toList();
    }

    private static IllegalArgumentException unreadable(String tableName, String key, String problem) {
        return new IllegalArgumentException("Cannot read table " + tableName + ": option '" + key + "' " + problem
                + ". Flink can neither read, alter nor drop the table until this is fixed; change its options with "
                + "the storage catalog's alterTable");
    }
}
