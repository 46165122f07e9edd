package dev.streamhouse.flink.cdc.mysql;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The captured tables and their current schemas, read from {@code information_schema} (which
 * shows a user only the tables it may read). Types come from {@code COLUMN_TYPE} as declared, e.g.
 * {@code tinyint(1)}, {@code decimal(10,2) unsigned}, {@code datetime(6)}.
 */
public final class TableDiscovery {

    private static final Set<String> SYSTEM_DATABASES =
            Set.of("information_schema", "mysql", "performance_schema", "sys");
    private static final Pattern LENGTH = Pattern.compile("^[a-z ]+\\((\\d+)(?:,\\s*(\\d+))?\\)");

    private TableDiscovery() {}

    public static List<CdcSchema> capturedTables(Connection connection, MySqlSourceConfig config) throws SQLException {
        List<CdcSchema> schemas = new ArrayList<>();
        for (CdcTableId table : capturedTableIds(connection, config)) {
            schemas.add(schemaOf(connection, table));
        }
        return schemas;
    }

    /** The captured tables with the column encodings a chunked snapshot needs. */
    public static List<CapturedTable> capturedTableDetails(Connection connection, MySqlSourceConfig config)
            throws SQLException {
        List<CapturedTable> tables = new ArrayList<>();
        for (CdcTableId table : capturedTableIds(connection, config)) {
            tables.add(tableOf(connection, table));
        }
        return tables;
    }

    /** The captured tables' names, by database and table. */
    public static List<CdcTableId> capturedTableIds(Connection connection, MySqlSourceConfig config)
            throws SQLException {
        List<CdcTableId> tables = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES "
                        + "WHERE TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            while (rs.next()) {
                String database = rs.getString(1);
                String table = rs.getString(2);
                if (!SYSTEM_DATABASES.contains(database.toLowerCase(Locale.ROOT)) && config.captures(database, table)) {
                    tables.add(new CdcTableId(database, table));
                }
            }
        }
        return tables;
    }

    /** The server's databases but its system ones ({@code mysql}, {@code information_schema}, ...), by name. */
    public static List<String> databases(Connection connection) throws SQLException {
        List<String> databases = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA ORDER BY SCHEMA_NAME")) {
            while (rs.next()) {
                if (!SYSTEM_DATABASES.contains(rs.getString(1).toLowerCase(Locale.ROOT))) {
                    databases.add(rs.getString(1));
                }
            }
        }
        return databases;
    }

    /** The base tables (not views) of {@code database} the user may see, by name; empty when it has none. */
    public static List<String> tables(Connection connection, String database) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT TABLE_NAME FROM information_schema.TABLES "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME")) {
            s.setString(1, database);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
        }
        return tables;
    }

    static CdcSchema schemaOf(Connection connection, CdcTableId table) throws SQLException {
        return tableOf(connection, table).schema();
    }

    /** The table's current schema and column encodings. */
    public static CapturedTable tableOf(Connection connection, CdcTableId table) throws SQLException {
        List<CdcColumn> columns = new ArrayList<>();
        List<CapturedTable.ColumnEncoding> encodings = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, "
                + "IS_NULLABLE, COLUMN_COMMENT, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            s.setString(1, table.database());
            s.setString(2, table.table());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String comment = rs.getString(5);
                    columns.add(new CdcColumn(rs.getString(1), parseType(rs.getString(2), rs.getString(3)),
                            "YES".equalsIgnoreCase(rs.getString(4)), comment == null || comment.isEmpty() ? null : comment));
                    encodings.add(new CapturedTable.ColumnEncoding(rs.getString(6), rs.getString(7),
                            members(rs.getString(3))));
                }
            }
        }
        try (PreparedStatement s = connection.prepareStatement("SELECT COLUMN_NAME FROM "
                + "information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? "
                + "AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION")) {
            s.setString(1, table.database());
            s.setString(2, table.table());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    keys.add(rs.getString(1));
                }
            }
        }
        return new CapturedTable(new CdcSchema(table, columns, keys, 1), encodings);
    }

    /** The members of {@code enum('a','b')} or {@code set('x','it''s')}; empty for other types. */
    static List<String> members(String columnType) {
        String declared = columnType.trim();
        String lower = declared.toLowerCase(Locale.ROOT);
        int open = declared.indexOf('(');
        if (!(lower.startsWith("enum(") || lower.startsWith("set(")) || open < 0) {
            return List.of();
        }
        List<String> members = new ArrayList<>();
        int i = open + 1;
        while (i < declared.length() && declared.charAt(i) == '\'') {
            StringBuilder member = new StringBuilder();
            i++;
            while (i < declared.length()) {
                char c = declared.charAt(i);
                if (c == '\'' && i + 1 < declared.length() && declared.charAt(i + 1) == '\'') {
                    member.append('\'');
                    i += 2;
                } else if (c == '\'') {
                    i++;
                    break;
                } else {
                    member.append(c);
                    i++;
                }
            }
            members.add(member.toString());
            if (i < declared.length() && declared.charAt(i) == ',') {
                i++;
            }
        }
        return members;
    }

    /** {@code DATA_TYPE} {@code int}, {@code COLUMN_TYPE} {@code int(10) unsigned} -> INT(10) UNSIGNED. */
    static MySqlType parseType(String dataType, String columnType) {
        String declared = columnType.toLowerCase(Locale.ROOT);
        int length = -1;
        int scale = -1;
        if (!declared.startsWith("enum") && !declared.startsWith("set")) {
            Matcher m = LENGTH.matcher(declared);
            if (m.find()) {
                length = Integer.parseInt(m.group(1));
                scale = m.group(2) == null ? -1 : Integer.parseInt(m.group(2));
            }
        }
        return new MySqlType(dataType, declared.contains("unsigned"), length, scale);
    }
}
