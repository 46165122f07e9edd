package dev.streamhouse.flink.cdc.debezium;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.BinlogStartOffset;
import io.debezium.document.DocumentWriter;
import io.debezium.relational.history.HistoryRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The schema history a binlog connector starts with after a chunked snapshot: the captured tables'
 * definitions ({@code SHOW CREATE TABLE}), their databases' character sets and the server's, as
 * Debezium history records at a binlog offset read just before them.
 *
 * <p>Started from that offset with this history, the connector decodes every change with the
 * definition its table had when the change was written: DDL after the offset is read from the
 * binlog and applied in order. (Without a history the connector would read the definitions the
 * tables have when it starts, later, and decode older changes with newer definitions.) DDL that
 * lands between the offset and the reads below is applied twice, which leaves a definition as it
 * was (ADD, MODIFY and DROP of a column, CREATE TABLE).
 */
public final class SchemaHistorySeed {

    private SchemaHistorySeed() {}

    /** The history of {@code tables} at {@code offset}, which must have been read before this call. */
    public static BinlogStart at(Connection connection, BinlogStartOffset offset, List<CdcTableId> tables)
            throws SQLException {
        Map<String, Object> position = offset.toDebeziumOffset();
        Map<String, String> source = Map.of("server", DebeziumProperties.TOPIC_PREFIX);
        Instant now = Instant.now();
        List<String> records = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@character_set_server, @@collation_server")) {
            rs.next();
            records.add(json(new HistoryRecord(source, position, "", null,
                    "SET character_set_server=" + rs.getString(1) + ", collation_server=" + rs.getString(2), null, now)));
        }
        for (String database : new TreeSet<>(tables.stream().map(CdcTableId::database).toList())) {
            records.add(json(new HistoryRecord(source, position, database, null, createDatabase(connection, database),
                    null, now)));
        }
        for (CdcTableId table : tables) {
            try (Statement s = connection.createStatement();
                    ResultSet rs = s.executeQuery("SHOW CREATE TABLE " + identifier(table.database()) + "."
                            + identifier(table.table()))) {
                rs.next();
                records.add(json(new HistoryRecord(source, position, table.database(), null, rs.getString(2), null,
                        now)));
            }
        }
        return new BinlogStart(OffsetJson.toJson(position), records);
    }

    private static String createDatabase(Connection connection, String database) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("SELECT DEFAULT_CHARACTER_SET_NAME, "
                + "DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?")) {
            s.setString(1, database);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("Database " + database + " disappeared while its tables were read");
                }
                return "CREATE DATABASE " + identifier(database) + " DEFAULT CHARACTER SET " + rs.getString(1)
                        + " COLLATE " + rs.getString(2);
            }
        }
    }

    private static String identifier(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static String json(HistoryRecord record) {
        try {
            return DocumentWriter.defaultWriter().write(record.document());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write a schema history record", e);
        }
    }
}
