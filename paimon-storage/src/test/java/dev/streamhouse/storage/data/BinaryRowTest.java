package dev.streamhouse.storage.data;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BOOLEAN;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.DATE;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.FLOAT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.SMALLINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIME;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.testutils.Hex;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** BinaryRow bytes against the vectors of docs/format.md §13.2 and §6.2, and reading them back. */
class BinaryRowTest {

    static final Timestamp TS_MILLIS = Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_000_000));
    static final Timestamp TS_MICROS = Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_901_000));

    /** One row of docs/format.md §13.2: field types, internal values and the expected row bytes. */
    record RowVector(String name, List<DataType> types, Object[] values, String hex) {
        @Override
        public String toString() {
            return name;
        }
    }

    static RowVector vector(String name, String hex, List<DataType> types, Object... values) {
        return new RowVector(name, types, values, hex);
    }

    static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    static Decimal dec(String value, int precision, int scale) {
        return Decimal.fromBigDecimal(new BigDecimal(value), precision, scale);
    }

    static Stream<RowVector> rowVectors() {
        return Stream.of(
                vector("INT 1", "0000000000000000 0100000000000000", List.of(INT()), 1),
                vector("INT -1", "0000000000000000 ffffffff00000000", List.of(INT()), -1),
                vector("BIGINT 10000000000", "0000000000000000 00e40b5402000000", List.of(BIGINT()), 10_000_000_000L),
                vector("STRING ''", "0000000000000000 0000000000000080", List.of(STRING()), str("")),
                vector("STRING 'abc'", "0000000000000000 6162630000000083", List.of(STRING()), str("abc")),
                vector("STRING '1234567'", "0000000000000000 3132333435363787", List.of(STRING()), str("1234567")),
                vector("STRING '12345678'", "0000000000000000 0800000010000000 3132333435363738",
                        List.of(STRING()), str("12345678")),
                vector("STRING 'hello world!'",
                        "0000000000000000 0c00000010000000 68656c6c6f20776f 726c642100000000",
                        List.of(STRING()), str("hello world!")),
                vector("STRING 'été'", "0000000000000000 c3a974c3a9000085", List.of(STRING()), str("été")),
                vector("(INT 7, STRING 'x')", "0000000000000000 0700000000000000 7800000000000081",
                        List.of(INT(), STRING()), 7, str("x")),
                vector("(STRING 'abcdefghij', BIGINT 5)",
                        "0000000000000000 0a00000018000000 0500000000000000 6162636465666768 696a000000000000",
                        List.of(STRING(), BIGINT()), str("abcdefghij"), 5L),
                vector("INT NULL", "0001000000000000 0000000000000000", List.of(INT()), (Object) null),
                vector("(BOOLEAN true, TINYINT 3, SMALLINT -2)",
                        "0000000000000000 0100000000000000 0300000000000000 feff000000000000",
                        List.of(BOOLEAN(), TINYINT(), SMALLINT()), true, (byte) 3, (short) -2),
                vector("(BOOLEAN false, TINYINT -1, SMALLINT 300, FLOAT -0.5, TIME 3600000)",
                        "0000000000000000 0000000000000000 ff00000000000000 2c01000000000000 000000bf00000000 "
                                + "80ee360000000000",
                        List.of(BOOLEAN(), TINYINT(), SMALLINT(), FLOAT(), TIME()),
                        false, (byte) -1, (short) 300, -0.5f, 3_600_000),
                vector("(DOUBLE 1.5, FLOAT 2.5)", "0000000000000000 000000000000f83f 0000204000000000",
                        List.of(DOUBLE(), FLOAT()), 1.5d, 2.5f),
                vector("DECIMAL(10,2) 123.45", "0000000000000000 3930000000000000",
                        List.of(DECIMAL(10, 2)), dec("123.45", 10, 2)),
                vector("DECIMAL(20,2) 123.45",
                        "0000000000000000 0200000010000000 3039000000000000 0000000000000000",
                        List.of(DECIMAL(20, 2)), dec("123.45", 20, 2)),
                vector("DECIMAL(20,2) -1.00",
                        "0000000000000000 0100000010000000 9c00000000000000 0000000000000000",
                        List.of(DECIMAL(20, 2)), dec("-1.00", 20, 2)),
                vector("TIMESTAMP(3) 2024-01-02T03:04:05.678", "0000000000000000 2edb20c88c010000",
                        List.of(TIMESTAMP(3)), TS_MILLIS),
                vector("TIMESTAMP(6) 2024-01-02T03:04:05.678901",
                        "0000000000000000 88bf0d0010000000 2edb20c88c010000",
                        List.of(TIMESTAMP(6)), TS_MICROS),
                vector("DATE 2024-01-02", "0000000000000000 0c4d000000000000",
                        List.of(DATE()), (int) LocalDate.of(2024, 1, 2).toEpochDay()),
                vector("BYTES 010203", "0000000000000000 0102030000000083",
                        List.of(BYTES()), new byte[] {1, 2, 3}),
                vector("BYTES 01..09", "0000000000000000 0900000010000000 0102030405060708 0900000000000000",
                        List.of(BYTES()), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}),
                vector("(TIMESTAMP(6) NULL, DECIMAL(20,2) NULL, STRING NULL, INT 5)",
                        "0007000000000000 0000000028000000 0000000030000000 0000000000000000 0500000000000000 "
                                + "0000000000000000 0000000000000000 0000000000000000",
                        List.of(TIMESTAMP(6), DECIMAL(20, 2), STRING(), INT()), null, null, null, 5),
                vector("arity 0", "0000000000000000", List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rowVectors")
    void converterProducesTheFormatBytes(RowVector v) {
        BinaryRow row = new BinaryRowConverter(v.types()).toBinaryRow(v.values());

        assertThat(Hex.grouped(row.bytes())).isEqualTo(Hex.regroup(v.hex()));
        assertThat(row.arity()).isEqualTo(v.types().size());
        assertThat(row.sizeInBytes()).isEqualTo(Hex.parse(v.hex()).length);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rowVectors")
    void writerWithWriteFieldProducesTheFormatBytes(RowVector v) {
        BinaryRowWriter writer = new BinaryRowWriter(v.types().size());
        for (int i = 0; i < v.values().length; i++) {
            InternalRowUtils.writeField(writer, i, v.values()[i], v.types().get(i));
        }

        assertThat(Hex.grouped(writer.complete().bytes())).isEqualTo(Hex.regroup(v.hex()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rowVectors")
    void convertingAGenericRowIgnoresItsRowKind(RowVector v) {
        GenericRow deleted = GenericRow.ofKind(RowKind.DELETE, v.values().clone());

        BinaryRow row = new BinaryRowConverter(v.types()).toBinaryRow(deleted);

        assertThat(Hex.grouped(row.bytes())).isEqualTo(Hex.regroup(v.hex()));
        assertThat(row.rowKind()).isEqualTo(RowKind.INSERT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rowVectors")
    void accessorsReadTheVectorBytesBack(RowVector v) {
        BinaryRow row = new BinaryRow(v.types().size(), Hex.parse(v.hex()));

        for (int i = 0; i < v.values().length; i++) {
            Object read = InternalRowUtils.fieldGetter(v.types().get(i), i).get(row);
            assertThat(comparable(read)).as("field %d", i).isEqualTo(comparable(v.values()[i]));
            assertThat(row.isNullAt(i)).as("null bit of field %d", i).isEqualTo(v.values()[i] == null);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rowVectors")
    void serializedFormPrefixesTheBigEndianArity(RowVector v) {
        BinaryRow row = new BinaryRow(v.types().size(), Hex.parse(v.hex()));
        byte[] serialized = row.toSerializedBytes();

        assertThat(serialized).startsWith(0, 0, 0, v.types().size());
        assertThat(Arrays.copyOfRange(serialized, 4, serialized.length)).isEqualTo(row.bytes());
        assertThat(BinaryRow.fromSerializedBytes(serialized)).isEqualTo(row);
    }

    private static Object comparable(Object value) {
        return value instanceof byte[] ? Hex.grouped((byte[]) value) : value;
    }

    // ---- manifest forms (docs/format.md §13.2 and §6.2) ----

    @Test
    void stringPartitionInManifestForm() {
        BinaryRow partition = new BinaryRowConverter(List.of(STRING())).toBinaryRow(new Object[] {str("2024-01-01")});
        String expected = "0000000100000000 000000000a000000 1000000032303234 2d30312d30310000 00000000";

        assertThat(Hex.grouped(partition.toSerializedBytes())).isEqualTo(Hex.regroup(expected));
        assertThat(Hex.grouped(partition.toSerializedBytes())).isEqualTo(Hex.regroup(
                "00000001 0000000000000000 0a00000010000000 323032342d30312d 3031000000000000"));
        assertThat(BinaryRow.fromSerializedBytes(Hex.parse(expected)).stringAt(0).toString()).isEqualTo("2024-01-01");
    }

    @Test
    void emptyRowSerializesToTwelveBytes() {
        byte[] serialized = BinaryRow.EMPTY_ROW.toSerializedBytes();

        assertThat(serialized).hasSize(12).containsOnly(0);
        assertThat(Hex.grouped(serialized)).isEqualTo(Hex.regroup("0000000000000000 00000000"));
        BinaryRow parsed = BinaryRow.fromSerializedBytes(serialized);
        assertThat(parsed.arity()).isZero();
        assertThat(parsed).isEqualTo(BinaryRow.EMPTY_ROW);
        assertThat(new BinaryRowConverter(List.of()).toBinaryRow(new Object[0])).isEqualTo(BinaryRow.EMPTY_ROW);
    }

    @Test
    void intKeyInManifestForm() {
        BinaryRow key = new BinaryRowConverter(List.of(INT().notNull())).toBinaryRow(new Object[] {3});

        assertThat(Hex.grouped(key.toSerializedBytes()))
                .isEqualTo(Hex.regroup("0000000100000000 0000000003000000 00000000"));
        assertThat(BinaryRow.fromSerializedBytes(key.toSerializedBytes()).intAt(0)).isEqualTo(3);
    }

    @Test
    void allNullPartitionInManifestForm() {
        List<DataType> types = List.of(INT(), DATE(), STRING());
        BinaryRow partition = new BinaryRowConverter(types).toBinaryRow(new Object[] {null, null, null});
        String expected = "0000000300070000 0000000000000000 0000000000000000 0000000000000000 00000000";

        assertThat(Hex.grouped(partition.toSerializedBytes())).isEqualTo(Hex.regroup(expected));
        BinaryRow parsed = BinaryRow.fromSerializedBytes(Hex.parse(expected));
        assertThat(parsed.isNullAt(0)).isTrue();
        assertThat(parsed.isNullAt(1)).isTrue();
        assertThat(parsed.isNullAt(2)).isTrue();
    }

    @Test
    void zeroValuedPartitionInManifestForm() {
        List<DataType> types = List.of(INT(), DATE(), STRING());
        BinaryRow partition = new BinaryRowConverter(types).toBinaryRow(new Object[] {2, 0, str("")});
        String expected = "0000000300000000 0000000002000000 0000000000000000 0000000000000000 00000080";

        assertThat(Hex.grouped(partition.toSerializedBytes())).isEqualTo(Hex.regroup(expected));
        BinaryRow parsed = BinaryRow.fromSerializedBytes(Hex.parse(expected));
        assertThat(parsed.intAt(0)).isEqualTo(2);
        assertThat(parsed.isNullAt(1)).isFalse();
        assertThat(parsed.intAt(1)).isZero();
        assertThat(parsed.isNullAt(2)).isFalse();
        assertThat(parsed.stringAt(2)).isEqualTo(BinaryString.EMPTY);
    }

    @Test
    void fromSerializedBytesRejectsMalformedInput() {
        assertThatThrownBy(() -> BinaryRow.fromSerializedBytes(new byte[3]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 4 bytes");
        assertThatThrownBy(() -> BinaryRow.fromSerializedBytes(Hex.parse("ffffffff 0000000000000000")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative arity");
        // arity 2 needs 8 + 16 bytes of row
        assertThatThrownBy(() -> BinaryRow.fromSerializedBytes(Hex.parse("00000002 0000000000000000 0000000000000000")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("arity 2");
    }

    // ---- layout details ----

    @Test
    void stringsUpToSevenBytesAreInlineAndLongerOnesGoToTheVariablePart() {
        BinaryRowConverter converter = new BinaryRowConverter(List.of(STRING()));

        BinaryRow seven = converter.toBinaryRow(new Object[] {str("1234567")});
        BinaryRow eight = converter.toBinaryRow(new Object[] {str("12345678")});

        assertThat(seven.sizeInBytes()).isEqualTo(16);
        assertThat(seven.bytes()[15]).isEqualTo((byte) 0x87);
        assertThat(eight.sizeInBytes()).isEqualTo(24);
        assertThat(BinaryRow.readLongLE(eight.bytes(), 8)).isEqualTo((16L << 32) | 8);
        assertThat(seven.stringAt(0).toString()).isEqualTo("1234567");
        assertThat(eight.stringAt(0).toString()).isEqualTo("12345678");
    }

    @Test
    void unicodeStringsRoundTripInlineAndInTheVariablePart() {
        List<String> samples = List.of("é", "日本", "🙂", "日本語テキスト", "a🙂b🙂c🙂", "Grüße, Jürgen ✓");
        BinaryRowConverter converter = new BinaryRowConverter(List.of(STRING(), INT()));
        for (String s : samples) {
            BinaryRow row = converter.toBinaryRow(new Object[] {str(s), 42});

            assertThat(row.stringAt(0).toString()).isEqualTo(s);
            assertThat(row.stringAt(0).byteLength()).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
            assertThat(row.intAt(1)).isEqualTo(42);
            assertThat(row.sizeInBytes() % 8).isZero();
        }
    }

    @Test
    void variablePartsFollowFieldOrderAndArePaddedToEightBytes() {
        List<DataType> types = List.of(STRING(), DECIMAL(20, 2), TIMESTAMP(6), BYTES());
        Object[] values = {str("0123456789"), dec("-98765432109876543.21", 20, 2), TS_MICROS, new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9}};

        BinaryRow row = new BinaryRowConverter(types).toBinaryRow(values);

        // header 8 + 4 slots = 40; string 16 (10 padded), decimal 16, timestamp 8, bytes 16 (9 padded)
        assertThat(row.sizeInBytes()).isEqualTo(40 + 16 + 16 + 8 + 16);
        assertThat(BinaryRow.readLongLE(row.bytes(), 8) >>> 32).isEqualTo(40);
        assertThat(BinaryRow.readLongLE(row.bytes(), 16) >>> 32).isEqualTo(56);
        assertThat(BinaryRow.readLongLE(row.bytes(), 24) >>> 32).isEqualTo(72);
        assertThat(BinaryRow.readLongLE(row.bytes(), 32) >>> 32).isEqualTo(80);
        assertThat(row.stringAt(0)).isEqualTo(values[0]);
        assertThat(row.decimalAt(1, 20, 2)).isEqualTo(values[1]);
        assertThat(row.timestampAt(2, 6)).isEqualTo(values[2]);
        assertThat(row.binaryAt(3)).isEqualTo(values[3]);
    }

    @Test
    void nonCompactNullsReserveZeroedSpaceAndPointToIt() {
        BinaryRow row = new BinaryRowConverter(List.of(DECIMAL(38, 10), TIMESTAMP(9)))
                .toBinaryRow(new Object[] {null, null});

        assertThat(row.sizeInBytes()).isEqualTo(8 + 16 + 16 + 8);
        assertThat(BinaryRow.readLongLE(row.bytes(), 8)).isEqualTo(24L << 32);
        assertThat(BinaryRow.readLongLE(row.bytes(), 16)).isEqualTo(40L << 32);
        assertThat(Arrays.copyOfRange(row.bytes(), 24, 48)).containsOnly(0);
        assertThat(row.isNullAt(0)).isTrue();
        assertThat(row.isNullAt(1)).isTrue();
    }

    @Test
    void widestDecimalsRoundTrip() {
        List<DataType> types = List.of(DECIMAL(38, 10), DECIMAL(38, 0), DECIMAL(19, 19));
        Object[] values = {
            dec("9999999999999999999999999999.9999999999", 38, 10),
            dec("-99999999999999999999999999999999999999", 38, 0),
            dec("-0.0000000000000000001", 19, 19)
        };

        BinaryRow row = new BinaryRowConverter(types).toBinaryRow(values);

        assertThat(row.decimalAt(0, 38, 10)).isEqualTo(values[0]);
        assertThat(row.decimalAt(1, 38, 0)).isEqualTo(values[1]);
        assertThat(row.decimalAt(2, 19, 19)).isEqualTo(values[2]);
        assertThat(((Decimal) values[0]).toUnscaledBytes()).hasSize(16);
    }

    @Test
    void compactTimestampsDropNanosAndPreEpochValuesRoundTrip() {
        Timestamp preEpoch = Timestamp.fromLocalDateTime(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
        BinaryRow row = new BinaryRowConverter(List.of(TIMESTAMP(3), TIMESTAMP(6)))
                .toBinaryRow(new Object[] {preEpoch.truncate(3), preEpoch});

        assertThat(row.timestampAt(0, 3)).isEqualTo(Timestamp.fromEpochMillis(-1));
        assertThat(row.timestampAt(1, 6)).isEqualTo(preEpoch);
        assertThat(row.timestampAt(1, 6).toLocalDateTime()).isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
    }

    @Test
    void nullBitsetWidthGrowsEverySixtyFourBitsIncludingTheHeaderByte() {
        assertThat(BinaryRow.bitSetWidthInBytes(0)).isEqualTo(8);
        assertThat(BinaryRow.bitSetWidthInBytes(56)).isEqualTo(8);
        assertThat(BinaryRow.bitSetWidthInBytes(57)).isEqualTo(16);
        assertThat(BinaryRow.bitSetWidthInBytes(120)).isEqualTo(16);
        assertThat(BinaryRow.bitSetWidthInBytes(121)).isEqualTo(24);
    }

    @Test
    void wideRowsPlaceNullBitsAndSlotsAfterTheWiderBitset() {
        int arity = 60;
        List<DataType> types = new ArrayList<>(Collections.nCopies(arity, INT()));
        Object[] values = new Object[arity];
        for (int i = 0; i < arity; i++) {
            values[i] = i;
        }
        values[59] = null;

        BinaryRow row = new BinaryRowConverter(types).toBinaryRow(values);

        assertThat(row.sizeInBytes()).isEqualTo(16 + 8 * arity);
        assertThat(row.bytes()[8]).isEqualTo((byte) (1 << 3)); // bit 67 = byte 8, bit 3
        assertThat(BinaryRow.readIntLE(row.bytes(), 16 + 8 * 58)).isEqualTo(58);
        assertThat(row.intAt(58)).isEqualTo(58);
        assertThat(row.isNullAt(59)).isTrue();
        assertThat(row.isNullAt(58)).isFalse();
    }

    @Test
    void resetWriterProducesTheSameBytesAsAFreshOne() {
        BinaryRowWriter writer = new BinaryRowWriter(2);
        writer.setRowKind(RowKind.UPDATE_AFTER);
        writer.writeString(0, str("a string that is long"));
        writer.setNullAt(1);
        writer.complete();

        writer.reset();
        writer.writeInt(0, 7);
        writer.writeString(1, str("x"));

        assertThat(Hex.grouped(writer.complete().bytes()))
                .isEqualTo(Hex.regroup("0000000000000000 0700000000000000 7800000000000081"));
    }

    @Test
    void completedRowsAreIndependentOfLaterWrites() {
        BinaryRowWriter writer = new BinaryRowWriter(1);
        writer.writeLong(0, 1L);
        BinaryRow first = writer.complete();
        writer.reset();
        writer.writeLong(0, 2L);

        assertThat(first.longAt(0)).isEqualTo(1L);
        assertThat(writer.complete().longAt(0)).isEqualTo(2L);
    }

    @Test
    void projectingConverterTakesTheListedFieldsInOrder() {
        GenericRow source = GenericRow.of(str("2024-01-01"), 3, str("name"));
        BinaryRowConverter keyOnly = new BinaryRowConverter(List.of(INT()), new int[] {1});
        BinaryRowConverter swapped = new BinaryRowConverter(List.of(STRING(), STRING()), new int[] {2, 0});

        assertThat(keyOnly.toBinaryRow(source))
                .isEqualTo(new BinaryRowConverter(List.of(INT())).toBinaryRow(new Object[] {3}));
        BinaryRow row = swapped.toBinaryRow(source);
        assertThat(row.stringAt(0).toString()).isEqualTo("name");
        assertThat(row.stringAt(1).toString()).isEqualTo("2024-01-01");
    }

    @Test
    void intAndBigintOfTheSameValueGiveIdenticalRows() {
        BinaryRow asInt = new BinaryRowConverter(List.of(INT())).toBinaryRow(new Object[] {1});
        BinaryRow asBigint = new BinaryRowConverter(List.of(BIGINT())).toBinaryRow(new Object[] {1L});

        assertThat(asInt).isEqualTo(asBigint);
        assertThat(asInt.hashCode()).isEqualTo(asBigint.hashCode());
    }

    @Test
    void rowsDifferingOnlyInTheNullBitAreNotEqual() {
        BinaryRowConverter converter = new BinaryRowConverter(List.of(INT()));

        assertThat(converter.toBinaryRow(new Object[] {0})).isNotEqualTo(converter.toBinaryRow(new Object[] {null}));
    }

    @Test
    void serializedCopyIsIndependentOfTheRow() {
        BinaryRow row = new BinaryRowConverter(List.of(INT())).toBinaryRow(new Object[] {5});
        byte[] serialized = row.toSerializedBytes();
        BinaryRow parsed = BinaryRow.fromSerializedBytes(serialized);

        serialized[4 + 8] = 9;

        assertThat(parsed.intAt(0)).isEqualTo(5);
        assertThat(row.intAt(0)).isEqualTo(5);
    }

    @Test
    void nestedTypesCannotBeWrittenIntoABinaryRow() {
        BinaryRowWriter writer = new BinaryRowWriter(1);

        assertThatThrownBy(() -> InternalRowUtils.writeField(
                        writer, 0, new GenericArray(new Object[] {1}),
                        DataTypes.ARRAY(INT())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be stored in a BinaryRow");
    }
}
