package dev.streamhouse.flink.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RawType;
import org.apache.flink.table.types.logical.ZonedTimestampType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Stream;

class FlinkTypesTest {

    private static LogicalType flink(org.apache.flink.table.types.DataType type) {
        return type.getLogicalType();
    }

    static Stream<Arguments> atomicTypes() {
        return Stream.of(
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.BOOLEAN()), DataTypes.BOOLEAN()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.TINYINT()), DataTypes.TINYINT()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.SMALLINT()), DataTypes.SMALLINT()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.INT()), DataTypes.INT()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.BIGINT()), DataTypes.BIGINT()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.FLOAT()), DataTypes.FLOAT()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.DOUBLE()), DataTypes.DOUBLE()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.DECIMAL(38, 10)), DataTypes.DECIMAL(38, 10)),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.CHAR(7)), DataTypes.CHAR(7)),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.VARCHAR(20)), DataTypes.VARCHAR(20)),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.STRING()), DataTypes.STRING()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.BINARY(4)), DataTypes.BINARY(4)),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.VARBINARY(9)), DataTypes.VARBINARY(9)),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.BYTES()), DataTypes.BYTES()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.DATE()), DataTypes.DATE()),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.TIME(3)), DataTypes.TIME(3)),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.TIMESTAMP(9)), DataTypes.TIMESTAMP(9)),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.TIMESTAMP_LTZ(3)), DataTypes.TIMESTAMP_LTZ(3)),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.ARRAY(
                        org.apache.flink.table.api.DataTypes.INT().notNull())), DataTypes.ARRAY(DataTypes.INT().notNull())),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.MULTISET(
                        org.apache.flink.table.api.DataTypes.STRING())), DataTypes.MULTISET(DataTypes.STRING())),
                Arguments.of(flink(org.apache.flink.table.api.DataTypes.MAP(
                        org.apache.flink.table.api.DataTypes.STRING().notNull(),
                        org.apache.flink.table.api.DataTypes.BIGINT())),
                        DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BIGINT())));
    }

    @ParameterizedTest
    @MethodSource("atomicTypes")
    void mapsBothWaysKeepingNullability(LogicalType flinkType, DataType storageType) {
        assertThat(FlinkTypes.toStorageType(flinkType, "c")).isEqualTo(storageType);
        assertThat(FlinkTypes.toFlinkType(storageType, "c")).isEqualTo(flinkType);
        assertThat(FlinkTypes.toStorageType(flinkType.copy(false), "c")).isEqualTo(storageType.notNull());
        assertThat(FlinkTypes.toFlinkType(storageType.notNull(), "c")).isEqualTo(flinkType.copy(false));
    }

    @Test
    void rowFieldsKeepNamesCommentsAndGetIdsInSchemaOrder() {
        LogicalType flinkRow = flink(org.apache.flink.table.api.DataTypes.ROW(
                org.apache.flink.table.api.DataTypes.FIELD("x", org.apache.flink.table.api.DataTypes.INT().notNull(),
                        "the x"),
                org.apache.flink.table.api.DataTypes.FIELD("z", org.apache.flink.table.api.DataTypes.ROW(
                        org.apache.flink.table.api.DataTypes.FIELD("a", org.apache.flink.table.api.DataTypes.STRING())))));

        DataType converted = FlinkTypes.toStorageType(flinkRow, "r");

        // children of a nested row are numbered before the row field itself: x=0, a=1, z=2
        RowType row = (RowType) converted;
        assertThat(row.fields()).extracting(DataField::name, DataField::id, DataField::description)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("x", 0, "the x"),
                        org.assertj.core.groups.Tuple.tuple("z", 2, null));
        assertThat(((RowType) row.typeAt(1)).field(0).id()).isEqualTo(1);
        assertThat(row.typeAt(0)).isEqualTo(DataTypes.INT().notNull());
        assertThat(FlinkTypes.toFlinkType(converted, "r")).isEqualTo(flinkRow);
    }

    @Test
    void refusesTypesTheFormatCannotStoreNamingColumnAndType() {
        List<LogicalType> unsupported = List.of(
                flink(org.apache.flink.table.api.DataTypes.INTERVAL(org.apache.flink.table.api.DataTypes.DAY())),
                flink(org.apache.flink.table.api.DataTypes.INTERVAL(org.apache.flink.table.api.DataTypes.MONTH())),
                new ZonedTimestampType(3),
                new RawType<>(String.class, org.apache.flink.api.common.typeutils.base.StringSerializer.INSTANCE),
                flink(org.apache.flink.table.api.DataTypes.NULL()));
        for (LogicalType type : unsupported) {
            assertThatThrownBy(() -> FlinkTypes.toStorageType(type, "weird"))
                    .isInstanceOf(ValidationException.class)
                    .hasMessageContaining("column 'weird'")
                    .hasMessageContaining(type.asSummaryString());
        }
    }

    @Test
    void unsupportedNestedTypeNamesTheNestedPath() {
        LogicalType type = flink(org.apache.flink.table.api.DataTypes.ROW(
                org.apache.flink.table.api.DataTypes.FIELD("span",
                        org.apache.flink.table.api.DataTypes.INTERVAL(org.apache.flink.table.api.DataTypes.SECOND(3)))));
        assertThatThrownBy(() -> FlinkTypes.toStorageType(type, "r"))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("column 'r.span'")
                .hasMessageContaining("INTERVAL SECOND(3)");
    }

    @Test
    void variantCannotBeShownInFlink() {
        assertThatThrownBy(() -> FlinkTypes.toFlinkType(DataTypes.VARIANT(), "v"))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("column 'v'")
                .hasMessageContaining("VARIANT");
    }

    @Test
    void convertedTypesAreUsableAsFlinkDataTypes() {
        LogicalType type = FlinkTypes.toFlinkType(DataTypes.MAP(DataTypes.STRING().notNull(),
                DataTypes.ARRAY(DataTypes.TIMESTAMP_LTZ(6))), "m");
        assertThat(TypeConversions.fromLogicalToDataType(type).toString())
                .isEqualTo("MAP<STRING NOT NULL, ARRAY<TIMESTAMP_LTZ(6)>>");
    }
}
