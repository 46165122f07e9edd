package dev.streamhouse.flink.cdc.mysql.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyOrderTest {

    private static final MySqlType INT = new MySqlType("INT", false, 11, -1);

    @Test
    void compositeKeysCompareColumnByColumnInKeyOrder() {
        CapturedTable table = TestTables.builder("t").column("v", INT).column("b", INT).column("a", INT)
                .key("a", "b").build();
        KeyOrder order = KeyOrder.of(table);
        assertThat(order.keyOf(new Object[] {9L, 2L, 1L})).containsExactly(1L, 2L);
        assertThat(order.compare(new Object[] {1L, 2L}, new Object[] {1L, 3L})).isNegative();
        assertThat(order.compare(new Object[] {2L, 0L}, new Object[] {1L, 3L})).isPositive();
        assertThat(order.compare(new Object[] {1L, 3L}, new Object[] {1L, 3L})).isZero();
    }

    @Test
    void numbersTemporalValuesAndBytesCompareAsTheServerDoes() {
        KeyOrder unsigned = KeyOrder.of(TestTables.builder("t").column("id", new MySqlType("BIGINT", true, 20, -1))
                .key("id").build());
        assertThat(unsigned.compare(new Object[] {new BigDecimal("18446744073709551615")},
                new Object[] {new BigDecimal("9223372036854775808")})).isPositive();
        KeyOrder decimal = KeyOrder.of(TestTables.builder("t").column("id", new MySqlType("DECIMAL", false, 10, 2))
                .key("id").build());
        assertThat(decimal.compare(new Object[] {new BigDecimal("1.50")}, new Object[] {new BigDecimal("1.5")})).isZero();
        KeyOrder time = KeyOrder.of(TestTables.builder("t").column("id", new MySqlType("DATETIME", false, 6, -1))
                .key("id").build());
        assertThat(time.compare(new Object[] {LocalDateTime.parse("1999-12-31T23:59:59.999999")},
                new Object[] {LocalDateTime.parse("2000-01-01T00:00")})).isNegative();
        KeyOrder bytes = KeyOrder.of(TestTables.builder("t").column("id", new MySqlType("VARBINARY", false, 8, -1))
                .key("id").build());
        assertThat(bytes.compare(new Object[] {new byte[] {(byte) 0x80}}, new Object[] {new byte[] {0x7f, 0}}))
                .as("unsigned bytes").isPositive();
        assertThat(bytes.compare(new Object[] {new byte[] {1}}, new Object[] {new byte[] {1, 0}})).isNegative();
    }

    @Test
    void binaryCollationsCompareEncodedBytesPaddedWithSpaces() {
        KeyOrder padded = KeyOrder.of(TestTables.builder("t")
                .column("id", new MySqlType("VARCHAR", false, 10, -1), "utf8mb4", "utf8mb4_bin").key("id").build());
        assertThat(padded.compare(new Object[] {"a"}, new Object[] {"a "})).isZero();
        assertThat(padded.compare(new Object[] {"a"}, new Object[] {"a\t"})).as("'a' pads to 'a '").isPositive();
        assertThat(padded.compare(new Object[] {"B"}, new Object[] {"a"})).isNegative();
        assertThat(padded.compare(new Object[] {"\uffff"}, new Object[] {"\ud83d\ude00"}))
                .as("code point order, not UTF-16 order").isNegative();
        KeyOrder noPad = KeyOrder.of(TestTables.builder("t")
                .column("id", new MySqlType("VARCHAR", false, 10, -1), "utf8mb4", "utf8mb4_nopad_bin").key("id").build());
        assertThat(noPad.compare(new Object[] {"a"}, new Object[] {"a "})).isNegative();
        KeyOrder latin1 = KeyOrder.of(TestTables.builder("t")
                .column("id", new MySqlType("VARCHAR", false, 10, -1), "latin1", "latin1_bin").key("id").build());
        assertThat(latin1.compare(new Object[] {"\u20ac"}, new Object[] {"\u00a0"})).as("0x80 < 0xa0 in latin1")
                .isNegative();
        assertThat(KeyOrder.compareUnsigned("ab".getBytes(StandardCharsets.UTF_8),
                "ab  ".getBytes(StandardCharsets.UTF_8), true)).isZero();
    }

    @Test
    void enumKeysOrderByMemberPosition() {
        KeyOrder order = KeyOrder.of(TestTables.builder("t").enumColumn("id", List.of("z", "a")).key("id").build());
        assertThat(order.compare(new Object[] {"z"}, new Object[] {"a"})).isNegative();
    }

    @Test
    void linguisticCollationsCompareByTheServersWeightsPaddedForPadSpace() {
        KeyOrder order = KeyOrder.of(TestTables.builder("ci").column("name", new MySqlType("VARCHAR", false, 4, -1),
                "utf8mb4", "utf8mb4_general_ci").key("name").build());
        assertThat(order.needsWeights()).isTrue();
        assertThatThrownBy(() -> order.compare(new Object[] {"a"}, new Object[] {"b"}))
                .hasMessageContaining("utf8mb4_general_ci", "weight");
        List<String> asked = new java.util.ArrayList<>();
        CollationWeights upperCase = (value, charset, collation, pad) -> {
            asked.add(value + "/" + charset + "/" + collation + "/" + pad);
            return value.toUpperCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8);
        };
        assertThat(order.compare(new Object[] {"a"}, new Object[] {"B"}, upperCase)).isNegative();
        assertThat(order.compare(new Object[] {"b"}, new Object[] {"B"}, upperCase)).isZero();
        assertThat(asked).contains("a/utf8mb4/utf8mb4_general_ci/4");
        KeyOrder noPad = KeyOrder.of(TestTables.builder("np").column("name", new MySqlType("VARCHAR", false, 4, -1),
                "utf8mb4", "utf8mb4_0900_ai_ci").key("name").build());
        asked.clear();
        noPad.compare(new Object[] {"a"}, new Object[] {"b"}, upperCase);
        assertThat(asked).contains("a/utf8mb4/utf8mb4_0900_ai_ci/0");
        assertThat(KeyOrder.of(TestTables.keyValue("t")).needsWeights()).isFalse();
    }

    @Test
    void keysWhoseOrderCannotBeReproducedAreRefusedNamingTableAndColumn() {
        assertThatThrownBy(() -> KeyOrder.of(TestTables.builder("nokey").column("v", INT).build()))
                .isInstanceOf(UnsupportedChunkKeyException.class)
                .hasMessageContaining("db.nokey", "no primary key", "'scan.incremental.snapshot.enabled' = 'false'");
        assertThatThrownBy(() -> KeyOrder.of(TestTables.builder("ci").column("name",
                new MySqlType("TEXT", false, -1, -1), "utf8mb4", "utf8mb4_general_ci").key("name").build()))
                .hasMessageContaining("db.ci", "'name'", "utf8mb4_general_ci", "CHAR and VARCHAR");
        assertThatThrownBy(() -> KeyOrder.of(TestTables.builder("js").column("j", new MySqlType("JSON", false, -1, -1))
                .key("j").build())).hasMessageContaining("db.js", "'j'", "JSON");
    }
}
