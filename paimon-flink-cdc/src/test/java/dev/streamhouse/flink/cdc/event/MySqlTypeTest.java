package dev.streamhouse.flink.cdc.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.event.MySqlType.Family;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MySqlTypeTest {

    @Test
    void aliasesAndSizesShareAFamily() {
        assertThat(MySqlType.of("int unsigned", 10, -1).family()).isEqualTo(Family.INT);
        assertThat(MySqlType.of("INTEGER", 10, -1).family()).isEqualTo(Family.INT);
        assertThat(MySqlType.of("BOOL", 1, -1).family()).isEqualTo(Family.BOOLEAN);
        assertThat(MySqlType.of("DOUBLE PRECISION", 22, -1).family()).isEqualTo(Family.DOUBLE);
        assertThat(MySqlType.of("REAL", 22, -1).family()).isEqualTo(Family.DOUBLE);
        assertThat(MySqlType.of("FIXED", 10, 2).family()).isEqualTo(Family.DECIMAL);
        assertThat(MySqlType.of("NUMERIC", 10, 2).family()).isEqualTo(Family.DECIMAL);
        assertThat(MySqlType.of("LONGTEXT", -1, -1).family()).isEqualTo(Family.TEXT);
        assertThat(MySqlType.of("TINYBLOB", -1, -1).family()).isEqualTo(Family.BLOB);
        assertThat(MySqlType.of("GEOMCOLLECTION", -1, -1).family()).isEqualTo(Family.SPATIAL);
        assertThat(MySqlType.of("POINT", -1, -1).isSpatial()).isTrue();
        assertThat(MySqlType.of("BLOB", -1, -1).isSpatial()).isFalse();
    }

    @Test
    void unknownNamesAreOther() {
        assertThat(MySqlType.of("UUID", -1, -1).family()).isEqualTo(Family.OTHER);
        assertThat(MySqlType.of("INET6", -1, -1).family()).isEqualTo(Family.OTHER);
        assertThat(Family.OTHER.names()).isEmpty();
    }

    @Test
    void everyNameBelongsToOneFamilyAndResolvesToIt() {
        Set<String> seen = new HashSet<>();
        for (Family family : Family.values()) {
            for (String name : family.names()) {
                assertThat(seen.add(name)).as("%s is listed twice", name).isTrue();
                assertThat(name).isEqualTo(name.toUpperCase(Locale.ROOT));
                assertThat(Family.of(name)).isEqualTo(family);
                assertThat(new MySqlType(name.toLowerCase(Locale.ROOT), false, -1, -1).family()).isEqualTo(family);
            }
        }
        assertThat(seen).hasSizeGreaterThan(Family.values().length);
    }

    @Test
    void enumAndSetDropTheLengthDebeziumReports() {
        assertThat(MySqlType.of("ENUM", 1, -1).length()).isEqualTo(-1);
        assertThat(MySqlType.of("SET", 5, -1).length()).isEqualTo(-1);
        assertThat(MySqlType.of("VARCHAR", 5, -1).length()).isEqualTo(5);
    }
}
