package dev.streamhouse.flink.cdc.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.cdc.event.MySqlType;
import org.apache.flink.table.api.DataTypes;
import org.junit.jupiter.api.Test;

class MySqlTypeMappingTest {

    private static org.apache.flink.table.types.DataType map(String name, boolean unsigned, int length, int scale) {
        return MySqlTypeMapping.toFlinkType(new MySqlType(name, unsigned, length, scale), "c");
    }

    @Test
    void mapsAsFlinkCdcAndPaimonDo() {
        assertThat(map("TINYINT", false, 1, -1)).isEqualTo(DataTypes.BOOLEAN());
        assertThat(map("TINYINT", true, 3, -1)).isEqualTo(DataTypes.SMALLINT());
        assertThat(map("BIT", false, 1, -1)).isEqualTo(DataTypes.BOOLEAN());
        assertThat(map("BIT", false, 10, -1)).isEqualTo(DataTypes.BINARY(2));
        assertThat(map("INT", true, 10, -1)).isEqualTo(DataTypes.BIGINT());
        assertThat(map("BIGINT", true, 20, -1)).isEqualTo(DataTypes.DECIMAL(20, 0));
        assertThat(map("DECIMAL", false, 65, 10)).isEqualTo(DataTypes.STRING());
        assertThat(map("DECIMAL", false, 10, 3)).isEqualTo(DataTypes.DECIMAL(10, 3));
        assertThat(map("DATETIME", false, 6, -1)).isEqualTo(DataTypes.TIMESTAMP(6));
        assertThat(map("TIMESTAMP", false, -1, -1)).isEqualTo(DataTypes.TIMESTAMP_LTZ(0));
        assertThat(map("TIME", false, 3, -1)).isEqualTo(DataTypes.TIME(3));
        assertThat(map("POINT", false, -1, -1)).isEqualTo(DataTypes.BYTES());
        assertThatThrownBy(() -> map("VECTOR", false, 3, -1)).hasMessageContaining("column 'c'");
    }

    @Test
    void serverIdIsANumberOrARange() {
        assertThat(MySqlSourceConfigs.parseServerIds("5400")).containsExactly(5400, -1);
        assertThat(MySqlSourceConfigs.parseServerIds("5400-5408")).containsExactly(5400, 5408);
        assertThatThrownBy(() -> MySqlSourceConfigs.parseServerIds("x")).hasMessageContaining("'server-id'");
        assertThatThrownBy(() -> MySqlSourceConfigs.parseServerIds("9-1")).hasMessageContaining("'server-id'");
    }
}
