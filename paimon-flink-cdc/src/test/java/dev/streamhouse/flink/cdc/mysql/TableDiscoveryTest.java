package dev.streamhouse.flink.cdc.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.event.MySqlType;
import org.junit.jupiter.api.Test;

class TableDiscoveryTest {

    @Test
    void columnTypesKeepLengthScaleAndSignedness() {
        assertThat(TableDiscovery.parseType("int", "int(10) unsigned")).isEqualTo(new MySqlType("INT", true, 10, -1));
        assertThat(TableDiscovery.parseType("tinyint", "tinyint(1)")).isEqualTo(new MySqlType("TINYINT", false, 1, -1));
        assertThat(TableDiscovery.parseType("decimal", "decimal(10,2)")).isEqualTo(new MySqlType("DECIMAL", false, 10, 2));
        assertThat(TableDiscovery.parseType("datetime", "datetime(6)")).isEqualTo(new MySqlType("DATETIME", false, 6, -1));
        assertThat(TableDiscovery.parseType("enum", "enum('a(1)','b')")).isEqualTo(new MySqlType("ENUM", false, -1, -1));
        assertThat(TableDiscovery.parseType("text", "text")).isEqualTo(new MySqlType("TEXT", false, -1, -1));
        assertThat(MySqlType.of("BIGINT UNSIGNED ZEROFILL", 20, -1)).isEqualTo(new MySqlType("BIGINT", true, 20, -1));
    }
}
