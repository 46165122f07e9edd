package dev.streamhouse.flink.common;

import dev.streamhouse.storage.data.RowKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FlinkRowKindsTest {

    @Test
    void everyKindMapsToTheKindOfTheSameByteAndSpellingAndBack() {
        for (RowKind kind : RowKind.values()) {
            org.apache.flink.types.RowKind flink = FlinkRowKinds.toFlink(kind);
            assertThat(flink.toByteValue()).isEqualTo(kind.toByteValue());
            assertThat(flink.shortString()).isEqualTo(kind.shortString());
            assertThat(FlinkRowKinds.toStorage(flink)).isEqualTo(kind);
        }
        for (org.apache.flink.types.RowKind flink : org.apache.flink.types.RowKind.values()) {
            assertThat(FlinkRowKinds.toFlink(FlinkRowKinds.toStorage(flink))).isEqualTo(flink);
        }
        assertThat(FlinkRowKinds.toFlink(RowKind.UPDATE_BEFORE)).isEqualTo(org.apache.flink.types.RowKind.UPDATE_BEFORE);
        assertThat(FlinkRowKinds.toStorage(org.apache.flink.types.RowKind.DELETE)).isEqualTo(RowKind.DELETE);
    }
}
