package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.CHAR;
import static dev.streamhouse.storage.types.DataTypes.DATE;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.MAP;
import static dev.streamhouse.storage.types.DataTypes.MULTISET;
import static dev.streamhouse.storage.types.DataTypes.ROW;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIME;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP_LTZ;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static dev.streamhouse.storage.types.DataTypes.SMALLINT;
import static dev.streamhouse.storage.types.DataTypes.VARCHAR;
import static dev.streamhouse.storage.types.DataTypes.VARIANT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

import java.util.List;

class ParquetSchemaConverterTest {

    /** docs/format.md §8.1, first example footer: a primary-key table's data file. */
    @Test
    void primaryKeyTableFooterMatchesPaimon() {
        RowType rowType = new RowType(List.of(
                FIELD(1073741824, "_KEY_id", INT().notNull()),
                FIELD(2147483646, "_SEQUENCE_NUMBER", BIGINT().notNull()),
                FIELD(2147483645, "_VALUE_KIND", TINYINT().notNull()),
                FIELD(0, "dt", STRING().notNull()),
                FIELD(1, "id", INT().notNull()),
                FIELD(2, "name", STRING()),
                FIELD(3, "price", DECIMAL(10, 2)),
                FIELD(4, "ts", TIMESTAMP(3))));
        assertSameSchema(rowType, """
                message paimon_schema {
                  required int32 _KEY_id = 1073741824;
                  required int64 _SEQUENCE_NUMBER = 2147483646;
                  required int32 _VALUE_KIND (INTEGER(8,true)) = 2147483645;
                  required binary dt (STRING) = 0;
                  required int32 id = 1;
                  optional binary name (STRING) = 2;
                  optional int64 price (DECIMAL(10,2)) = 3;
                  optional int64 ts (TIMESTAMP(MILLIS,false)) = 4;
                }""");
    }

    /** docs/format.md §8.1, second example footer: an append table with nested columns. */
    @Test
    void appendTableFooterMatchesPaimon() {
        RowType rowType = new RowType(List.of(
                FIELD(0, "a", INT()),
                FIELD(1, "b", STRING()),
                FIELD(2, "arr", ARRAY(INT())),
                FIELD(3, "m", MAP(STRING(), BIGINT())),
                FIELD(4, "r", ROW(FIELD(5, "x", INT()), FIELD(6, "y", STRING().notNull()))),
                FIELD(7, "d", DATE()),
                FIELD(8, "ts6", TIMESTAMP(6)),
                FIELD(9, "ltz", TIMESTAMP_LTZ(3)),
                FIELD(10, "bin", BYTES()),
                FIELD(11, "dec", DECIMAL(38, 10)),
                FIELD(12, "c", CHAR(10)),
                FIELD(13, "vc", VARCHAR(20).notNull())));
        assertSameSchema(rowType, """
                message paimon_schema {
                  optional int32 a = 0;
                  optional binary b (STRING) = 1;
                  optional group arr (LIST) = 2 { repeated group list { optional int32 element = 536872960; } }
                  optional group m (MAP) = 3 { repeated group key_value (MAP_KEY_VALUE) {
                      required binary key (STRING) = 536867838; optional int64 value = 536873984; } }
                  optional group r = 4 { optional int32 x = 5; required binary y (STRING) = 6; }
                  optional int32 d (DATE) = 7;
                  optional int64 ts6 (TIMESTAMP(MICROS,false)) = 8;
                  optional int64 ltz (TIMESTAMP(MILLIS,true)) = 9;
                  optional binary bin = 10;
                  optional fixed_len_byte_array(16) dec (DECIMAL(38,10)) = 11;
                  optional binary c (STRING) = 12;
                  required binary vc (STRING) = 13;
                }""");
    }

    @Test
    void nestedContainersDeriveIdsFromTheirColumnAndDepth() {
        RowType rowType = new RowType(List.of(
                FIELD(1, "aa", ARRAY(ARRAY(INT().notNull()))),
                FIELD(2, "am", ARRAY(MAP(INT(), STRING()))),
                FIELD(3, "ar", ARRAY(ROW(FIELD(4, "p", ARRAY(INT()))))),
                FIELD(5, "ms", MULTISET(STRING())),
                FIELD(6, "v", VARIANT())));
        // depth restarts at 0 inside a ROW: p's element is 536870911 + 4*1024 + 1
        assertSameSchema(rowType, """
                message paimon_schema {
                  optional group aa (LIST) = 1 { repeated group list {
                      optional group element (LIST) = 536871936 { repeated group list {
                          required int32 element = 536871937; } } } }
                  optional group am (LIST) = 2 { repeated group list {
                      optional group element (MAP) = 536872960 { repeated group key_value (MAP_KEY_VALUE) {
                          required int32 key = 536868861; optional binary value (STRING) = 536872961; } } } }
                  optional group ar (LIST) = 3 { repeated group list {
                      optional group element = 536873984 {
                          optional group p (LIST) = 4 { repeated group list {
                              optional int32 element = 536875008; } } } } }
                  optional group ms (MAP) = 5 { repeated group key_value (MAP_KEY_VALUE) {
                      required binary key (STRING) = 536865790; required int32 value = 536876032; } }
                  optional group v = 6 { required binary value; required binary metadata; }
                }""");
    }

    @Test
    void primitiveMappingsFollowPrecision() {
        RowType rowType = new RowType(List.of(
                FIELD(0, "d9", DECIMAL(9, 2)),
                FIELD(1, "d18", DECIMAL(18, 4)),
                FIELD(2, "d19", DECIMAL(19, 0)),
                FIELD(3, "t", TIME(3)),
                FIELD(4, "ts9", TIMESTAMP(9)),
                FIELD(5, "ltz6", TIMESTAMP_LTZ(6)),
                FIELD(6, "ltz9", TIMESTAMP_LTZ(9).notNull()),
                FIELD(7, "s", SMALLINT()),
                FIELD(8, "ts0", TIMESTAMP(0))));
        assertSameSchema(rowType, """
                message paimon_schema {
                  optional int32 d9 (DECIMAL(9,2)) = 0;
                  optional int64 d18 (DECIMAL(18,4)) = 1;
                  optional fixed_len_byte_array(9) d19 (DECIMAL(19,0)) = 2;
                  optional int32 t (TIME(MILLIS,true)) = 3;
                  optional int96 ts9 = 4;
                  optional int64 ltz6 (TIMESTAMP(MICROS,true)) = 5;
                  required int96 ltz9 = 6;
                  optional int32 s (INTEGER(16,true)) = 7;
                  optional int64 ts0 (TIMESTAMP(MILLIS,false)) = 8;
                }""");
    }

    @Test
    void decimalFixedLengthIsTheSmallestHoldingThePrecision() {
        assertThat(ParquetSchemaConverter.decimalFixedLength(19)).isEqualTo(9);
        assertThat(ParquetSchemaConverter.decimalFixedLength(20)).isEqualTo(9);
        assertThat(ParquetSchemaConverter.decimalFixedLength(21)).isEqualTo(9);
        assertThat(ParquetSchemaConverter.decimalFixedLength(22)).isEqualTo(10);
        assertThat(ParquetSchemaConverter.decimalFixedLength(38)).isEqualTo(16);
    }

    private static void assertSameSchema(RowType rowType, String expectedText) {
        MessageType expected = MessageTypeParser.parseMessageType(expectedText);
        MessageType actual = ParquetSchemaConverter.toMessageType(rowType);
        // toString prints every id and annotation, so equal text means equal schemas including ids
        assertThat(actual.toString()).isEqualTo(expected.toString());
        assertThat(actual).isEqualTo(expected);
    }
}
