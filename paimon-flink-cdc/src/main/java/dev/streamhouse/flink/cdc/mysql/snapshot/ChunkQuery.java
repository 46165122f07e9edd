package dev.streamhouse.flink.cdc.mysql.snapshot;

import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of a chunked snapshot: a chunk's {@code SELECT} and the queries that find chunk
 * boundaries. A key range is written as comparisons of the key columns, expanded for composite keys
 * ({@code a > ? OR (a = ? AND b >= ?)}) so that the server scans the primary-key index for it. Each
 * query comes with the parameter values in the order its placeholders appear.
 */
final class ChunkQuery {

    private ChunkQuery() {}

    /** A statement's text and its parameters. */
    record Sql(String text, List<Object> parameters) {

        PreparedStatement prepare(java.sql.Connection connection) throws SQLException {
            PreparedStatement statement = connection.prepareStatement(text);
            for (int i = 0; i < parameters.size(); i++) {
                JdbcValues.bind(statement, i + 1, parameters.get(i));
            }
            return statement;
        }
    }

    /** Every column of the chunk's rows, in key order. */
    static Sql select(CdcSchema schema, ChunkRange range) {
        List<Object> parameters = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        sql.append(columnList(schema.columnNames())).append(" FROM ").append(table(schema.table()));
        String where = where(schema.primaryKeys(), range, parameters);
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(where);
        }
        sql.append(" ORDER BY ").append(columnList(schema.primaryKeys()));
        return new Sql(sql.toString(), parameters);
    }

    /**
     * The key {@code offset} rows past {@code from} (inclusive; null for the table's start) in key
     * order: the next chunk boundary. No row when fewer rows remain.
     */
    static Sql keyAtOffset(CdcSchema schema, Object[] from, long offset) {
        List<Object> parameters = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        sql.append(columnList(schema.primaryKeys())).append(" FROM ").append(table(schema.table()));
        if (from != null) {
            sql.append(" WHERE ").append(atLeast(schema.primaryKeys(), from, parameters));
        }
        sql.append(" ORDER BY ").append(columnList(schema.primaryKeys())).append(" LIMIT 1 OFFSET ").append(offset);
        return new Sql(sql.toString(), parameters);
    }

    /** The smallest and largest value of a single-column key. */
    static Sql minMax(CdcSchema schema) {
        String key = quote(schema.primaryKeys().get(0));
        return new Sql("SELECT MIN(" + key + "), MAX(" + key + ") FROM " + table(schema.table()), List.of());
    }

    static String where(List<String> keys, ChunkRange range, List<Object> parameters) {
        List<String> parts = new ArrayList<>();
        if (range.lower() != null) {
            parts.add(atLeast(keys, range.lower(), parameters));
        }
        if (range.upper() != null) {
            parts.add(below(keys, range.upper(), parameters));
        }
        return parts.size() == 2 ? "(" + parts.get(0) + ") AND (" + parts.get(1) + ")"
                : parts.isEmpty() ? "" : parts.get(0);
    }

    /** key >= bound. */
    static String atLeast(List<String> keys, Object[] bound, List<Object> parameters) {
        return compare(keys, bound, ">", ">=", parameters);
    }

    /** key < bound. */
    static String below(List<String> keys, Object[] bound, List<Object> parameters) {
        return compare(keys, bound, "<", "<", parameters);
    }

    /**
     * The lexicographic comparison of the key with {@code bound}: a disjunction over each key column
     * of "equal on the columns before it and {@code strict} on it", the last column {@code last}.
     */
    private static String compare(List<String> keys, Object[] bound, String strict, String last,
            List<Object> parameters) {
        if (keys.size() == 1) {
            parameters.add(bound[0]);
            return quote(keys.get(0)) + " " + last + " ?";
        }
        List<String> disjuncts = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            StringBuilder d = new StringBuilder("(");
            for (int j = 0; j < i; j++) {
                d.append(quote(keys.get(j))).append(" = ? AND ");
                parameters.add(bound[j]);
            }
            d.append(quote(keys.get(i))).append(' ').append(i == keys.size() - 1 ? last : strict).append(" ?)");
            parameters.add(bound[i]);
            disjuncts.add(d.toString());
        }
        return String.join(" OR ", disjuncts);
    }

    static String table(CdcTableId table) {
        return quote(table.database()) + "." + quote(table.table());
    }

    static String columnList(List<String> columns) {
        List<String> quoted = new ArrayList<>(columns.size());
        for (String c : columns) {
            quoted.add(quote(c));
        }
        return String.join(", ", quoted);
    }

    static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
