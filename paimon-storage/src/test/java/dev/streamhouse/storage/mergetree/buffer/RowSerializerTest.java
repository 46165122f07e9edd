package dev.streamhouse.storage.mergetree.buffer;

import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.canonical;
import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BINARY;
import static dev.streamhouse.storage.types.DataTypes.BOOLEAN;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.CHAR;
import static dev.streamhouse.storage.types.DataTypes.DATE;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.FLOAT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.MAP;
import static dev.streamhouse.storage.types.DataTypes.MULTISET;
import static dev.streamhouse.storage.types.DataTypes.ROW;
import static dev.streamhouse.storage.types.DataTypes.SMALLINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIME;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP_LTZ;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static dev.streamhouse.storage.types.DataTypes.VARIANT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RowSerializerTest {

    private static final RowType ALL_TYPES = RowType.of(
            BOOLEAN(), TINYINT(), SMALLINT(), INT(), BIGINT(), FLOAT(), DOUBLE(), CHAR(3), STRING(), BINARY(2), BYTES(),
            DECIMAL(10, 2), DECIMAL(38, 10), DATE(), TIME(3), TIMESTAMP(3), TIMESTAMP(9), TIMESTAMP_LTZ(6), VARIANT(),
            ARRAY(STRING()), MAP(STRING(), ARRAY(INT())), MULTISET(STRING()),
            ROW(FIELD(100, "a", INT()), FIELD(101, "b", ARRAY(ROW(FIELD(102, "c", STRING()), FIELD(103, "d", DECIMAL(30, 3)))))));

    private static GenericRow roundTrip(RowType type, GenericRow row) {
        RowSerializer serializer = new RowSerializer(type);
        ByteWriter out = new ByteWriter(16);
        out.writeByte(0x7E); // rows need not start at offset 0
        serializer.serialize(row, out);
        int end = out.position();
        ByteReader in = new ByteReader(out.buffer(), 1);
        GenericRow back = serializer.deserialize(in);
        assertThat(in.position()).as("reader stops exactly after the row").isEqualTo(end);
        return back;
    }

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private static GenericRow fullRow() {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(str("z-first"), new GenericArray(new Object[] {1, null, -3}));
        map.put(str("ключ"), null);
        map.put(null, new GenericArray(new Object[0]));
        Map<Object, Object> multiset = new LinkedHashMap<>();
        multiset.put(str("x"), 3);
        multiset.put(null, 1);
        GenericRow inner = GenericRow.of(str("日本語 😀"), Decimal.fromBigDecimal(new BigDecimal("-123456789012345678901234567.891"), 30, 3));
        GenericRow nested = GenericRow.of(42, new GenericArray(new Object[] {inner, null, GenericRow.of(null, null)}));
        return GenericRow.of(
                true, (byte) -128, (short) 32767, Integer.MIN_VALUE, Long.MAX_VALUE, -0.0f, Double.NaN,
                str("ab "), str("héllo wörld ✓ 😀"), new byte[] {(byte) 0xFF, 0}, new byte[] {1, 2, 3, (byte) 0x80},
                Decimal.fromBigDecimal(new BigDecimal("-12345678.91"), 10, 2),
                Decimal.fromBigDecimal(new BigDecimal("1234567890123456789012345678.0123456789"), 38, 10),
                -719_162, 86_399_999,
                Timestamp.fromEpochMillis(-1L),
                Timestamp.fromLocalDateTime(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999)),
                Timestamp.fromEpochMillis(1_700_000_000_123L, 456_000),
                new byte[] {1, 0, 0, 0, 12},
                new GenericArray(new Object[] {str(""), null, str("ø")}),
                new GenericMap(map),
                new GenericMap(multiset),
                nested);
    }

    @Test
    void roundTripsEveryTypeWithNestedValuesAndNulls() {
        GenericRow row = fullRow();
        assertThat(canonical(roundTrip(ALL_TYPES, row))).isEqualTo(canonical(row));
    }

    /** A view over the serialized bytes reads what deserialize reads, for every type, alone or NULL. */
    @Test
    void aViewReadsEveryTypeInPlace() {
        GenericRow full = fullRow();
        assertThat(canonical(viewed(ALL_TYPES, full))).isEqualTo(canonical(full));
        for (int i = 0; i < ALL_TYPES.fieldCount(); i++) {
            RowType single = RowType.of(INT(), ALL_TYPES.typeAt(i), STRING());
            for (Object value : new Object[] {full.field(i), null}) {
                GenericRow row = GenericRow.of(-5, value, str("after"));
                assertThat(canonical(viewed(single, row))).as("%s = %s", single.typeAt(1), value)
                        .isEqualTo(canonical(row));
            }
        }
    }

    /** Serializes {@code row} behind other bytes and copies what a view of it reads. */
    private static GenericRow viewed(RowType type, GenericRow row) {
        ByteWriter out = new ByteWriter(16);
        out.writeLong(-1L);
        new RowSerializer(type).serialize(row, out);
        int end = out.position();
        SerializedRowView view = new SerializedRowView(type);
        assertThat(view.pointTo(out.buffer(), 8)).as("the view ends exactly after the row").isEqualTo(end);
        assertThat(view.arity()).isEqualTo(type.fieldCount());
        return dev.streamhouse.storage.data.InternalRowUtils.copyToGeneric(view, type);
    }

    @Test
    void roundTripsAllNullRow() {
        GenericRow row = new GenericRow(ALL_TYPES.fieldCount());
        GenericRow back = roundTrip(ALL_TYPES, row);
        for (int i = 0; i < ALL_TYPES.fieldCount(); i++) {
            assertThat(back.isNullAt(i)).as("field %d", i).isTrue();
        }
    }

    @Test
    void roundTripsEachFieldAloneNullAndNonNull() {
        GenericRow full = fullRow();
        for (int i = 0; i < ALL_TYPES.fieldCount(); i++) {
            DataType type = ALL_TYPES.typeAt(i);
            RowType single = RowType.of(type, INT());
            GenericRow row = GenericRow.of(full.field(i), 7);
            assertThat(canonical(roundTrip(single, row))).as("type %s", type).isEqualTo(canonical(row));
            GenericRow nullRow = GenericRow.of(null, 7);
            assertThat(canonical(roundTrip(single, nullRow))).as("NULL %s", type).isEqualTo(canonical(nullRow));
        }
    }

    @Test
    void readValuesOwnTheirBytes() {
        RowType type = RowType.of(STRING(), BYTES());
        RowSerializer serializer = new RowSerializer(type);
        ByteWriter out = new ByteWriter(16);
        serializer.serialize(GenericRow.of(str("keep"), new byte[] {9}), out);
        GenericRow back = serializer.deserialize(new ByteReader(out.buffer(), 0));
        Arrays.fill(out.buffer(), (byte) 0);
        assertThat(back.stringAt(0).toString()).isEqualTo("keep");
        assertThat(back.binaryAt(1)).containsExactly(9);
    }

    @Test
    void serializesStringViewsByTheirRangeOnly() {
        byte[] backing = "xxhelloyy".getBytes(StandardCharsets.UTF_8);
        GenericRow row = GenericRow.of(BinaryString.fromBytes(backing, 2, 5));
        assertThat(roundTrip(RowType.of(STRING()), row).stringAt(0).toString()).isEqualTo("hello");
    }

    @Test
    void encodingIsCompact() {
        ByteWriter out = new ByteWriter(16);
        new RowSerializer(RowType.of(INT(), BIGINT(), STRING())).serialize(GenericRow.of(1, null, str("abc")), out);
        // 1 bitmap byte + 4 (INT) + 0 (NULL) + 1 length byte + 3
        assertThat(out.position()).isEqualTo(9);
    }

    @Test
    void largeValuesGrowTheWriter() {
        String big = "ü".repeat(300_000);
        GenericRow row = GenericRow.of(str(big), new GenericArray(new Object[] {new byte[100_000]}));
        GenericRow back = roundTrip(RowType.of(STRING(), ARRAY(BYTES())), row);
        assertThat(back.stringAt(0).toString()).isEqualTo(big);
        assertThat(((byte[]) ((GenericArray) back.arrayAt(1)).element(0))).hasSize(100_000);
    }

    @Test
    void rejectsRowsWithTooFewFields() {
        RowSerializer serializer = new RowSerializer(RowType.of(INT(), INT()));
        assertThatThrownBy(() -> serializer.serialize(GenericRow.of(1), new ByteWriter(16)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Cannot serialize row")
                .hasMessageContaining("has 1 fields");
    }

    @Test
    void varIntsRoundTripAtEveryWidth() {
        ByteWriter out = new ByteWriter(16);
        List<Integer> values = List.of(0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456,
                Integer.MAX_VALUE);
        for (int v : values) {
            out.writeVarInt(v);
        }
        ByteReader in = new ByteReader(out.buffer(), 0);
        int pos = 0;
        for (int v : values) {
            assertThat(in.readVarInt()).isEqualTo(v);
            assertThat(SerializedKeyComparator.varInt(out.buffer(), pos)).isEqualTo(v);
            pos += SerializedKeyComparator.varIntSize(v);
            assertThat(in.position()).isEqualTo(pos);
        }
        assertThatThrownBy(() -> out.writeVarInt(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
