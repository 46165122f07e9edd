package dev.streamhouse.flink.cdc.kafka.format;

import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.MySqlType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The formats' parsing of single records: types, values, keys, and what carries no rows. */
class CdcFormatsTest {
    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void canalTypesValuesAndThePreviousValuesOfAnUpdate() throws Exception {
        CdcFormat canal = CdcFormats.create("canal-json", ZoneId.of("Asia/Shanghai"));
        List<CdcRecord> records = canal.parse(null, bytes("{\"data\":[{\"id\":\"1\",\"t\":\"-838:59:59.5\","
                + "\"ts\":\"2024-01-02 08:00:00\",\"b\":\"18446744073709551615\",\"bits\":\"258\",\"g\":\"\\u0001\"}],"
                + "\"old\":[{\"t\":\"01:00:00\"}],\"mysqlType\":{\"id\":\"int(11) unsigned\",\"t\":\"time(1)\","
                + "\"ts\":\"timestamp\",\"b\":\"bigint(20) unsigned zerofill\",\"bits\":\"bit(10)\",\"g\":\"point\"},"
                + "\"pkNames\":[\"id\"],\"database\":\"d\",\"table\":\"t\",\"isDdl\":false,\"type\":\"UPDATE\"}"));
        assertThat(records).hasSize(1);
        CdcRecord r = records.get(0);
        assertThat(r.schema().columns()).extracting(c -> c.type().toString()).containsExactly("INT(11) UNSIGNED",
                "TIME(1)", "TIMESTAMP", "BIGINT(20) UNSIGNED", "BIT(10)", "POINT");
        assertThat(r.schema().primaryKeys()).containsExactly("id");
        assertThat(r.after()).containsExactly(1L, Duration.ofHours(-838).minusMinutes(59).minusSeconds(59).minusMillis(500),
                Instant.parse("2024-01-02T00:00:00Z"), new BigDecimal("18446744073709551615"), new byte[] {1, 2},
                new byte[] {1});
        assertThat(r.before()[1]).isEqualTo(Duration.ofHours(1));
        assertThat(r.before()[0]).isEqualTo(1L);
    }

    @Test
    void canalDdlCarriesNoRowsAndAWrongValueNamesItsColumn() throws Exception {
        CdcFormat canal = CdcFormats.create("canal-json", ZoneId.of("UTC"));
        assertThat(canal.parse(null, bytes("{\"isDdl\":true,\"type\":\"ALTER\",\"sql\":\"ALTER TABLE t ADD x INT\"}")))
                .isEmpty();
        assertThatThrownBy(() -> canal.parse(null, bytes("{\"data\":[{\"id\":\"x\"}],\"mysqlType\":{\"id\":\"int\"},"
                + "\"database\":\"d\",\"table\":\"t\",\"type\":\"INSERT\"}")))
                .hasMessageContaining("column 'id'").hasMessageContaining("'x' is no INT value");
        assertThat(CanalJson.declared("decimal(10,2) unsigned")).isEqualTo(new MySqlType("DECIMAL", true, 10, 2));
        assertThat(CanalJson.declared("enum('a','b')")).isEqualTo(new MySqlType("ENUM", false, -1, -1));
    }

    @Test
    void debeziumRecordsOfOneSchemaShareOneSchemaAndAChangedOneGetsTheNextVersion() throws Exception {
        CdcFormat debezium = CdcFormats.create("debezium-json", ZoneId.of("UTC"));
        String key = "{\"id\":1}";
        CdcRecord first = debezium.parse(bytes(key), bytes(envelope("{\"type\":\"int32\",\"optional\":false,"
                + "\"field\":\"id\"}", "{\"id\":1}"))).get(0);
        CdcRecord second = debezium.parse(bytes(key), bytes(envelope("{\"type\":\"int32\",\"optional\":false,"
                + "\"field\":\"id\"}", "{\"id\":2}"))).get(0);
        CdcRecord widened = debezium.parse(bytes(key), bytes(envelope("{\"type\":\"int64\",\"optional\":false,"
                + "\"field\":\"id\"}", "{\"id\":3}"))).get(0);
        assertThat(second.schema()).isSameAs(first.schema());
        assertThat(first.schema().primaryKeys()).containsExactly("id");
        assertThat(widened.schema().version()).isEqualTo(first.schema().version() + 1);
        assertThat(widened.schema().columns().get(0).type().name()).isEqualTo("BIGINT");
        assertThat(debezium.parse(bytes(key), null)).as("a tombstone").isEmpty();
        assertThat(debezium.parse(null, bytes("{\"status\":\"BEGIN\",\"id\":\"571:53195829\",\"event_count\":null}")))
                .as("a transaction marker").isEmpty();
    }

    @Test
    void debeziumPropagatedSourceTypesAndTimestamps() throws Exception {
        CdcFormat debezium = CdcFormats.create("debezium-json", ZoneId.of("UTC"));
        CdcRecord r = debezium.parse(null, bytes(envelope("{\"type\":\"int16\",\"optional\":true,\"field\":\"flag\","
                + "\"parameters\":{\"__debezium.source.column.type\":\"TINYINT\",\"__debezium.source.column.length\":\"1\"}},"
                + "{\"type\":\"int64\",\"optional\":true,\"name\":\"io.debezium.time.Timestamp\",\"field\":\"dt\"},"
                + "{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.time.ZonedTimestamp\",\"field\":\"ts\"}",
                "{\"flag\":1,\"dt\":1700000000123,\"ts\":\"2024-01-02T03:04:05.123456Z\"}"))).get(0);
        assertThat(r.schema().columns()).extracting(c -> c.type().toString())
                .containsExactly("TINYINT(1)", "DATETIME(3)", "TIMESTAMP(6)");
        assertThat(r.after()).containsExactly(1L, LocalDateTime.parse("2023-11-14T22:13:20.123"),
                Instant.parse("2024-01-02T03:04:05.123456Z"));
        assertThat(r.schema().primaryKeys()).as("no record key, no primary key").isEmpty();
    }

    @Test
    void maxwellRowsKeysAndThePreviousValuesOfAnUpdate() throws Exception {
        CdcFormat maxwell = CdcFormats.create("maxwell-json", ZoneId.of("UTC"));
        CdcRecord r = maxwell.parse(null, bytes("{\"database\":\"shop\",\"table\":\"items\",\"type\":\"update\","
                + "\"ts\":1700000000,\"data\":{\"id\":1,\"name\":\"pen\",\"qty\":null},\"old\":{\"name\":\"ink\"},"
                + "\"primary_key_columns\":[\"id\"]}")).get(0);
        assertThat(r.op()).isEqualTo(CdcRecord.Op.UPDATE);
        assertThat(r.table().toString()).isEqualTo("shop.items");
        assertThat(r.schema().primaryKeys()).containsExactly("id");
        assertThat(r.schema().columns()).extracting(c -> c.type().name()).containsOnly("TEXT");
        assertThat(r.after()).containsExactly("1", "pen", null);
        assertThat(r.before()).containsExactly("1", "ink", null);
        assertThat(r.sourceTimestampMillis()).isEqualTo(1_700_000_000_000L);
        assertThat(maxwell.parse(null, bytes("{\"database\":\"shop\",\"table\":\"items\",\"type\":\"table-alter\"}")))
                .isEmpty();
    }

    @Test
    void oggAwsDmsAndPlainJsonRows() throws Exception {
        CdcRecord ogg = CdcFormats.create("ogg-json", ZoneId.of("UTC")).parse(null, bytes("{\"table\":\"SHOP.ITEMS\","
                + "\"op_type\":\"D\",\"op_ts\":\"2020-05-13 15:40:06.000000\",\"primary_keys\":[\"ID\"],"
                + "\"before\":{\"ID\":7,\"NAME\":\"cap\"}}")).get(0);
        assertThat(ogg.op()).isEqualTo(CdcRecord.Op.DELETE);
        assertThat(ogg.table().toString()).isEqualTo("SHOP.ITEMS");
        assertThat(ogg.before()).containsExactly("7", "cap");
        assertThat(ogg.schema().primaryKeys()).containsExactly("ID");

        CdcFormat dms = CdcFormats.create("aws-dms-json", ZoneId.of("UTC"));
        CdcRecord update = dms.parse(null, bytes("{\"data\":{\"id\":1,\"v\":\"b\"},\"before-image\":{\"id\":1,"
                + "\"v\":\"a\"},\"metadata\":{\"timestamp\":\"2024-01-02T03:04:05.000Z\",\"record-type\":\"data\","
                + "\"operation\":\"update\",\"schema-name\":\"shop\",\"table-name\":\"t\"}}")).get(0);
        assertThat(update.before()).containsExactly("1", "a");
        assertThat(update.after()).containsExactly("1", "b");
        assertThat(dms.parse(null, bytes("{\"control\":{},\"metadata\":{\"record-type\":\"control\","
                + "\"operation\":\"create-table\"}}"))).isEmpty();

        CdcRecord plain = CdcFormats.create("json", ZoneId.of("UTC")).parse(null,
                bytes("{\"ip\":\"10.0.0.1\",\"bytes\":512,\"tags\":[\"a\"]}")).get(0);
        assertThat(plain.op()).isEqualTo(CdcRecord.Op.INSERT);
        assertThat(plain.after()).containsExactly("10.0.0.1", "512", "[\"a\"]");
        assertThatThrownBy(() -> CdcFormats.create("json", ZoneId.of("UTC")).parse(null, bytes("[1, 2]")))
                .hasMessageContaining("no JSON object");
    }

    @Test
    void debeziumDecimalsAsBase64BytesOrAsNumbers() throws Exception {
        CdcFormat debezium = CdcFormats.create("debezium-json", ZoneId.of("UTC"));
        String field = "{\"type\":\"bytes\",\"optional\":true,\"name\":\"org.apache.kafka.connect.data.Decimal\","
                + "\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"},\"field\":\"d\"}";
        // 1050 (unscaled) is 0x041A: Base64 "BBo=", what the JSON converter writes by default.
        assertThat(debezium.parse(null, bytes(envelope(field, "{\"d\":\"BBo=\"}"))).get(0).after())
                .containsExactly(new BigDecimal("10.50"));
        // decimal.format=NUMERIC
        assertThat(debezium.parse(null, bytes(envelope(field, "{\"d\":10.5}"))).get(0).after())
                .containsExactly(new BigDecimal("10.50"));
    }

    /** A Debezium insert with the schema: the after struct's {@code fields} and its {@code after} row. */
    private static String envelope(String fields, String after) {
        String row = "{\"type\":\"struct\",\"fields\":[" + fields + "],\"optional\":true,\"field\":\"%s\"}";
        return "{\"schema\":{\"type\":\"struct\",\"fields\":[" + String.format(row, "before") + ","
                + String.format(row, "after") + "]},\"payload\":{\"before\":null,\"after\":" + after
                + ",\"source\":{\"db\":\"d\",\"table\":\"t\",\"ts_ms\":5},\"op\":\"c\"}}";
    }
}
