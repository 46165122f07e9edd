package dev.streamhouse.flink.source.data;

import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.flink.source.testutils.AllTypes;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.apache.flink.table.types.logical.LogicalType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Flink row type of what a read produces: {@code FlinkTypes.toFlinkRowType} over every type. */
class ReadRowTypeTest {

    @Test
    void everyTypeMapsToTheFlinkTypeOfTheSameSqlSpelling() {
        RowType type = new RowType(AllTypes.schema().fields());
        org.apache.flink.table.types.logical.RowType flink = FlinkTypes.toFlinkRowType(type);

        assertThat(flink.getFieldNames()).isEqualTo(type.fieldNames());
        List<String> spelled = flink.getChildren().stream().map(LogicalType::asSerializableString).toList();
        assertThat(spelled).containsExactly(
                "INT NOT NULL", "BOOLEAN", "TINYINT", "SMALLINT", "BIGINT", "FLOAT", "DOUBLE",
                "DECIMAL(10, 2)", "DECIMAL(38, 18)", "CHAR(5)", "VARCHAR(20)", "VARCHAR(2147483647)",
                "BINARY(4)", "VARBINARY(2147483647)", "DATE", "TIME(3)",
                "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP(9)",
                "TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP(9) WITH LOCAL TIME ZONE",
                "ARRAY<INT>", "ARRAY<VARCHAR(2147483647)>",
                "MAP<VARCHAR(2147483647) NOT NULL, BIGINT>", "MULTISET<VARCHAR(2147483647) NOT NULL>",
                "ROW<`a` INT, `b` VARCHAR(2147483647), `c` ROW<`x` DECIMAL(38, 10), `t` TIMESTAMP(9)>>",
                "ARRAY<ROW<`k` INT, `v` VARCHAR(2147483647)>>",
                "MAP<INT NOT NULL, ARRAY<DOUBLE>>");
    }

    @Test
    void nullabilityAndDescriptionsCarryOver() {
        RowType type = new RowType(List.of(
                DataTypes.FIELD(0, "k", DataTypes.BIGINT().notNull()),
                new dev.streamhouse.storage.types.DataField(1, "v", DataTypes.STRING(), "the value", null)));
        org.apache.flink.table.types.logical.RowType flink = FlinkTypes.toFlinkRowType((RowType) type.notNull());
        assertThat(flink.isNullable()).isFalse();
        assertThat(flink.getTypeAt(0).isNullable()).isFalse();
        assertThat(flink.getTypeAt(1).isNullable()).isTrue();
        assertThat(flink.getFields().get(1).getDescription()).hasValue("the value");
    }

    @Test
    void variantHasNoFlinkTypeAndSaysWhatToDo() {
        assertThatThrownBy(() -> FlinkTypes.toFlinkType(DataTypes.ARRAY(DataTypes.VARIANT()), "v"))
                .isInstanceOf(org.apache.flink.table.api.ValidationException.class)
                .hasMessageContaining("column 'v'")
                .hasMessageContaining("VARIANT")
                .hasMessageContaining("leave the column out of the projection");
    }
}
