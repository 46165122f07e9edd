package dev.streamhouse.flink.cdc.kafka.format;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.event.MySqlType;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Debezium's JSON change events ({@code value.format} = {@code debezium-json}), as Kafka Connect's
 * JSON converter writes them: with the schema ({@code {"schema": ..., "payload": {...}}}) or without
 * ({@code schemas.enable=false}, the payload alone). Operations {@code c} and {@code r} (a snapshot
 * read) are inserts, {@code u} updates (before and after), {@code d} deletes; tombstones, truncates,
 * messages and transaction markers carry no rows. The table is the payload's {@code source.db} and
 * {@code source.table}.
 *
 * <p><b>Types.</b> With the schema, each column's type is exact: the MySQL type Debezium propagates
 * ({@code column.propagate.source.type} puts {@code __debezium.source.column.type}, length and scale in
 * the field's parameters) or else the Kafka Connect type and its logical name ({@code int32} INT,
 * {@code io.debezium.time.MicroTimestamp} DATETIME(6), {@code org.apache.kafka.connect.data.Decimal}
 * DECIMAL with its precision and scale, ...). Without it every column is a string (TEXT), as in Apache
 * Paimon.
 *
 * <p><b>Primary key.</b> A Debezium connector writes the row's key columns as the record's key (with
 * their schema, or alone): those columns are the primary key. A record without key has none (a
 * table without primary key at the source, or a producer that drops keys).
 */
final class DebeziumJson extends JsonFormat {
    private static final String SOURCE_TYPE = "__debezium.source.column.type";
    private static final String SOURCE_LENGTH = "__debezium.source.column.length";
    private static final String SOURCE_SCALE = "__debezium.source.column.scale";

    private final SchemaCache schemas = new SchemaCache();

    DebeziumJson() {
        super(new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS));
    }

    /** How one column's JSON values become the Java values of its MySQL type. */
    private enum Encoding {
        BOOLEAN, INTEGER, FLOAT, DOUBLE, TEXT, BASE64, BITS, DECIMAL_BYTES, DECIMAL_NUMBER, DATE_DAYS,
        TIMESTAMP_MILLIS, TIMESTAMP_MICROS, TIMESTAMP_NANOS, ZONED_TIMESTAMP, TIME_MILLIS, TIME_MICROS, TIME_NANOS
    }

    private record Column(CdcColumn column, Encoding encoding, int scale) {}

    /** A table's columns as the last record's schema gave them, and that schema (the row struct's). */
    private record TypedColumns(JsonNode rowSchema, List<Column> columns, List<CdcColumn> cdcColumns) {}

    /** Per table: records repeat their schema, which is compared (no allocation) instead of parsed again. */
    private final Map<CdcTableId, TypedColumns> typed = new HashMap<>();

    @Override
    protected List<CdcRecord> parse(byte[] key, JsonNode root) throws IOException {
        boolean enveloped = root.has("schema") && root.has("payload");
        JsonNode payload = enveloped ? root.get("payload") : root;
        if (payload == null || payload.isNull()) {
            return List.of();
        }
        JsonNode opNode = payload.get("op");
        if (opNode == null || opNode.isNull()) {
            if (payload.has("status") && payload.has("id")) {
                return List.of(); // a transaction marker (BEGIN / END)
            }
            throw new IllegalArgumentException("it has no 'op' field: not a Debezium change event");
        }
        String op = opNode.asText();
        CdcRecord.Op kind;
        switch (op) {
            case "c":
            case "r":
                kind = CdcRecord.Op.INSERT;
                break;
            case "u":
                kind = CdcRecord.Op.UPDATE;
                break;
            case "d":
                kind = CdcRecord.Op.DELETE;
                break;
            case "t":
            case "m":
                return List.of();
            default:
                throw new IllegalArgumentException("unknown Debezium operation '" + op + "'");
        }
        JsonNode source = payload.path("source");
        CdcTableId table = new CdcTableId(source.path("db").asText(""), source.path("table").asText(""));
        JsonNode before = payload.get("before");
        JsonNode after = payload.get("after");
        JsonNode image = after != null && !after.isNull() ? after : before;
        if (image == null || image.isNull()) {
            throw new IllegalArgumentException("operation '" + op + "' has neither 'before' nor 'after'");
        }
        TypedColumns columns = enveloped ? typedColumns(table, root.get("schema"), image) : textColumns(image);
        CdcSchema schema = schemas.schema(table, columns.cdcColumns(), keyColumns(key));
        Object[] beforeRow = kind == CdcRecord.Op.INSERT ? null : row(columns.columns(), required(before, op, "before"));
        Object[] afterRow = kind == CdcRecord.Op.DELETE ? null : row(columns.columns(), required(after, op, "after"));
        long ts = source.path("ts_ms").asLong(payload.path("ts_ms").asLong(0));
        return List.of(new CdcRecord(schema, kind, beforeRow, afterRow, ts, op.equals("r")));
    }

    private static JsonNode required(JsonNode image, String op, String field) {
        if (image == null || image.isNull() || !image.isObject()) {
            throw new IllegalArgumentException("operation '" + op + "' has no '" + field + "' row");
        }
        return image;
    }

    /** The record key's columns: the primary key, as Debezium connectors write it. */
    private List<String> keyColumns(byte[] key) throws IOException {
        if (key == null || key.length == 0) {
            return List.of();
        }
        JsonNode k = mapper.readTree(key);
        if (k != null && k.has("schema") && k.has("payload")) {
            k = k.get("payload");
        }
        if (k == null || !k.isObject()) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        k.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Object[] row(List<Column> columns, JsonNode image) {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
            Column c = columns.get(i);
            JsonNode v = image.get(c.column().name());
            try {
                row[i] = v == null || v.isNull() ? null : value(v, c);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("column '" + c.column().name() + "' (" + c.column().type() + "): "
                        + v + " is no value of its type (" + e.getMessage() + ")", e);
            }
        }
        return row;
    }

    private static Object value(JsonNode v, Column c) {
        switch (c.encoding()) {
            case BOOLEAN:
                return v.isBoolean() ? v.booleanValue() : v.asLong() != 0;
            case INTEGER:
                return v.isIntegralNumber() ? v.longValue() : Long.parseLong(v.asText());
            case FLOAT:
                return (float) v.asDouble();
            case DOUBLE:
                return v.asDouble();
            case TEXT:
                return v.isTextual() ? v.textValue() : v.toString();
            case BASE64:
                return Base64.getDecoder().decode(v.asText());
            case BITS: {
                // Kafka Connect's Bits: little-endian bytes; MySqlType's BIT(n) values are big-endian.
                byte[] little = Base64.getDecoder().decode(v.asText());
                byte[] big = new byte[little.length];
                for (int i = 0; i < little.length; i++) {
                    big[i] = little[little.length - 1 - i];
                }
                return big;
            }
            case DECIMAL_BYTES:
                // Kafka Connect's JSON converter writes Decimal as Base64 of the unscaled bytes by default,
                // as a JSON number with decimal.format=NUMERIC.
                return v.isNumber() ? v.decimalValue().setScale(c.scale(), java.math.RoundingMode.UNNECESSARY)
                        : new BigDecimal(new BigInteger(Base64.getDecoder().decode(v.asText())), c.scale());
            case DECIMAL_NUMBER:
                return v.isNumber() ? v.decimalValue() : new BigDecimal(v.asText());
            case DATE_DAYS:
                return LocalDate.ofEpochDay(v.asLong());
            case TIMESTAMP_MILLIS:
                return LocalDateTime.ofEpochSecond(Math.floorDiv(v.asLong(), 1000L),
                        (int) Math.floorMod(v.asLong(), 1000L) * 1_000_000, ZoneOffset.UTC);
            case TIMESTAMP_MICROS:
                return LocalDateTime.ofEpochSecond(Math.floorDiv(v.asLong(), 1_000_000L),
                        (int) Math.floorMod(v.asLong(), 1_000_000L) * 1000, ZoneOffset.UTC);
            case TIMESTAMP_NANOS:
                return LocalDateTime.ofEpochSecond(Math.floorDiv(v.asLong(), 1_000_000_000L),
                        (int) Math.floorMod(v.asLong(), 1_000_000_000L), ZoneOffset.UTC);
            case ZONED_TIMESTAMP:
                return Instant.parse(v.asText());
            case TIME_MILLIS:
                return Duration.ofMillis(v.asLong());
            case TIME_MICROS:
                return Duration.ofNanos(Math.multiplyExact(v.asLong(), 1000L));
            case TIME_NANOS:
                return Duration.ofNanos(v.asLong());
            default:
                throw new IllegalStateException(c.encoding().name());
        }
    }

    /** Without schema: every column of the row image, as TEXT (nullable), in the image's order. */
    private static TypedColumns textColumns(JsonNode image) {
        List<Column> columns = new ArrayList<>();
        Iterator<String> names = image.fieldNames();
        while (names.hasNext()) {
            columns.add(new Column(new CdcColumn(names.next(), new MySqlType("TEXT", false, -1, -1), true, null),
                    Encoding.TEXT, -1));
        }
        return typedColumns(null, columns);
    }

    /** With the schema: the {@code after} (or {@code before}) struct's fields, typed. */
    private TypedColumns typedColumns(CdcTableId table, JsonNode schema, JsonNode image) {
        JsonNode row = null;
        for (JsonNode f : schema.path("fields")) {
            String name = f.path("field").asText();
            if (name.equals("after") || (row == null && name.equals("before"))) {
                row = f;
            }
        }
        if (row == null || !row.path("fields").isArray()) {
            return textColumns(image);
        }
        JsonNode fields = row.get("fields");
        TypedColumns last = typed.get(table);
        if (last != null && last.rowSchema().equals(fields)) {
            return last;
        }
        List<Column> columns = new ArrayList<>();
        for (JsonNode f : fields) {
            columns.add(column(f));
        }
        TypedColumns parsed = typedColumns(fields, columns);
        typed.put(table, parsed);
        return parsed;
    }

    private static TypedColumns typedColumns(JsonNode rowSchema, List<Column> columns) {
        List<CdcColumn> cdcColumns = new ArrayList<>(columns.size());
        for (Column c : columns) {
            cdcColumns.add(c.column());
        }
        return new TypedColumns(rowSchema, columns, cdcColumns);
    }

    private static Column column(JsonNode field) {
        String name = field.path("field").asText();
        boolean nullable = field.path("optional").asBoolean(true);
        String connectType = field.path("type").asText("string");
        String logical = field.path("name").asText("");
        JsonNode params = field.path("parameters");
        Encoding encoding = encoding(connectType, logical);
        int scale = params.path("scale").asInt(0);
        MySqlType type;
        if (params.has(SOURCE_TYPE)) {
            type = MySqlType.of(params.get(SOURCE_TYPE).asText(), params.path(SOURCE_LENGTH).asInt(-1),
                    params.path(SOURCE_SCALE).asInt(-1));
        } else {
            type = mySqlType(connectType, logical, params);
        }
        if (encoding == Encoding.TEXT && (type.name().equals("DECIMAL") || type.name().equals("NUMERIC"))) {
            encoding = Encoding.DECIMAL_NUMBER; // decimal.handling.mode=string
        }
        if (encoding == Encoding.BASE64 && type.name().equals("BIT")) {
            encoding = Encoding.BITS;
        }
        return new Column(new CdcColumn(name, type, nullable, null), encoding, scale);
    }

    private static Encoding encoding(String connectType, String logical) {
        switch (logical) {
            case "org.apache.kafka.connect.data.Decimal":
                return Encoding.DECIMAL_BYTES;
            case "io.debezium.time.Date":
            case "org.apache.kafka.connect.data.Date":
                return Encoding.DATE_DAYS;
            case "io.debezium.time.Timestamp":
            case "org.apache.kafka.connect.data.Timestamp":
                return Encoding.TIMESTAMP_MILLIS;
            case "io.debezium.time.MicroTimestamp":
                return Encoding.TIMESTAMP_MICROS;
            case "io.debezium.time.NanoTimestamp":
                return Encoding.TIMESTAMP_NANOS;
            case "io.debezium.time.ZonedTimestamp":
                return Encoding.ZONED_TIMESTAMP;
            case "io.debezium.time.Time":
            case "org.apache.kafka.connect.data.Time":
                return Encoding.TIME_MILLIS;
            case "io.debezium.time.MicroTime":
                return Encoding.TIME_MICROS;
            case "io.debezium.time.NanoTime":
                return Encoding.TIME_NANOS;
            case "io.debezium.data.Bits":
                return Encoding.BITS;
            default:
                break;
        }
        switch (connectType) {
            case "boolean":
                return Encoding.BOOLEAN;
            case "int8":
            case "int16":
            case "int32":
            case "int64":
                return Encoding.INTEGER;
            case "float":
            case "float32":
                return Encoding.FLOAT;
            case "double":
            case "float64":
                return Encoding.DOUBLE;
            case "bytes":
                return Encoding.BASE64;
            case "string":
                return Encoding.TEXT;
            default:
                return Encoding.TEXT; // struct, array, map: their JSON text
        }
    }

    /** The MySQL type of a Kafka Connect type where Debezium did not propagate the source's. */
    private static MySqlType mySqlType(String connectType, String logical, JsonNode params) {
        switch (logical) {
            case "org.apache.kafka.connect.data.Decimal": {
                int precision = params.path("connect.decimal.precision").asInt(38);
                return new MySqlType("DECIMAL", false, precision, params.path("scale").asInt(0));
            }
            case "io.debezium.time.Date":
            case "org.apache.kafka.connect.data.Date":
                return type("DATE", -1);
            case "io.debezium.time.Timestamp":
            case "org.apache.kafka.connect.data.Timestamp":
                return type("DATETIME", 3);
            case "io.debezium.time.MicroTimestamp":
                return type("DATETIME", 6);
            case "io.debezium.time.NanoTimestamp":
                return type("DATETIME", 9);
            case "io.debezium.time.ZonedTimestamp":
                return type("TIMESTAMP", 6);
            case "io.debezium.time.Time":
            case "org.apache.kafka.connect.data.Time":
                return type("TIME", 3);
            case "io.debezium.time.MicroTime":
                return type("TIME", 6);
            case "io.debezium.time.NanoTime":
                return type("TIME", 9);
            case "io.debezium.time.Year":
                return type("YEAR", -1);
            case "io.debezium.data.Json":
                return type("JSON", -1);
            case "io.debezium.data.Enum":
                return type("ENUM", -1);
            case "io.debezium.data.EnumSet":
                return type("SET", -1);
            case "io.debezium.data.Bits":
                return type("BIT", params.path("length").asInt(8));
            default:
                break;
        }
        switch (connectType) {
            case "boolean":
                return type("BOOLEAN", -1);
            case "int8":
                return type("TINYINT", -1);
            case "int16":
                return type("SMALLINT", -1);
            case "int32":
                return type("INT", -1);
            case "int64":
                return type("BIGINT", -1);
            case "float":
            case "float32":
                return type("FLOAT", -1);
            case "double":
            case "float64":
                return type("DOUBLE", -1);
            case "bytes":
                return type("BLOB", -1);
            default:
                return type("TEXT", -1);
        }
    }

    private static MySqlType type(String name, int length) {
        return new MySqlType(name, false, length, -1);
    }
}
