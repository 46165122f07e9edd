package dev.streamhouse.flink.cdc.kafka;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Debezium change events as Kafka Connect's JSON converter writes them for a MySQL connector: the value
 * {@code {"schema": ..., "payload": {"before", "after", "source", "op", "ts_ms"}}} and the key
 * {@code {"schema": ..., "payload": {<key columns>}}}; or both without schema
 * ({@code schemas.enable=false}). Field types are Kafka Connect's ({@code int32}, {@code string}, ...)
 * with Debezium's logical names and parameters, given as JSON by the test.
 */
final class DebeziumEvents {
    private final String database;
    private final String table;
    private final Map<String, String> fieldSchemas = new LinkedHashMap<>();
    private final List<String> keyColumns = new ArrayList<>();
    private boolean withSchema = true;

    DebeziumEvents(String database, String table) {
        this.database = database;
        this.table = table;
    }

    /** A column: {@code schema} is the field's JSON without the {@code field} name, e.g. {@code "type":"int32"}. */
    DebeziumEvents column(String name, String schema) {
        fieldSchemas.put(name, "{" + schema + ",\"field\":\"" + name + "\"}");
        return this;
    }

    DebeziumEvents key(String... columns) {
        keyColumns.clear();
        keyColumns.addAll(List.of(columns));
        return this;
    }

    DebeziumEvents withoutSchema() {
        withSchema = false;
        return this;
    }

    /** The key of a row (values as JSON literals by column), or null when the table has no key. */
    String key(Map<String, String> row) {
        if (keyColumns.isEmpty()) {
            return null;
        }
        String payload = keyColumns.stream().map(c -> "\"" + c + "\":" + row.get(c))
                .collect(Collectors.joining(",", "{", "}"));
        if (!withSchema) {
            return payload;
        }
        String fields = keyColumns.stream().map(fieldSchemas::get).collect(Collectors.joining(","));
        return "{\"schema\":{\"type\":\"struct\",\"fields\":[" + fields + "],\"optional\":false,\"name\":\""
                + database + "." + table + ".Key\"},\"payload\":" + payload + "}";
    }

    String insert(Map<String, String> after) {
        return envelope(null, after, "c");
    }

    String read(Map<String, String> after) {
        return envelope(null, after, "r");
    }

    String update(Map<String, String> before, Map<String, String> after) {
        return envelope(before, after, "u");
    }

    String delete(Map<String, String> before) {
        return envelope(before, null, "d");
    }

    private String envelope(Map<String, String> before, Map<String, String> after, String op) {
        String payload = "{\"before\":" + row(before) + ",\"after\":" + row(after)
                + ",\"source\":{\"version\":\"3.5.0.Final\",\"connector\":\"mysql\",\"name\":\"dbserver1\","
                + "\"ts_ms\":1700000000000,\"db\":\"" + database + "\",\"table\":\"" + table + "\"},\"op\":\"" + op
                + "\",\"ts_ms\":1700000000123}";
        if (!withSchema) {
            return payload;
        }
        String rowSchema = "{\"type\":\"struct\",\"fields\":[" + String.join(",", fieldSchemas.values())
                + "],\"optional\":true,\"name\":\"dbserver1." + database + "." + table + ".Value\",\"field\":\"%s\"}";
        String schema = "{\"type\":\"struct\",\"fields\":[" + String.format(rowSchema, "before") + ","
                + String.format(rowSchema, "after") + ",{\"type\":\"struct\",\"fields\":[{\"type\":\"string\","
                + "\"optional\":false,\"field\":\"db\"},{\"type\":\"string\",\"optional\":true,\"field\":\"table\"}],"
                + "\"optional\":false,\"name\":\"io.debezium.connector.mysql.Source\",\"field\":\"source\"},"
                + "{\"type\":\"string\",\"optional\":false,\"field\":\"op\"},{\"type\":\"int64\",\"optional\":true,"
                + "\"field\":\"ts_ms\"}],\"optional\":false,\"name\":\"dbserver1." + database + "." + table
                + ".Envelope\"}";
        return "{\"schema\":" + schema + ",\"payload\":" + payload + "}";
    }

    private static String row(Map<String, String> values) {
        if (values == null) {
            return "null";
        }
        return values.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                .collect(Collectors.joining(",", "{", "}"));
    }

    /** A row: column, JSON literal, column, JSON literal, ... */
    static Map<String, String> row(String... columnsAndValues) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            row.put(columnsAndValues[i], columnsAndValues[i + 1]);
        }
        return row;
    }
}
