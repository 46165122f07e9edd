package dev.streamhouse.flink.cdc.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BinlogPositionTest {

    @Test
    void positionsOrderByFileNumberThenPosition() {
        BinlogPosition a = new BinlogPosition("binlog.999999", 900);
        BinlogPosition b = new BinlogPosition("binlog.1000000", 4);
        assertThat(a.isBefore(b)).as("file numbers, not names").isTrue();
        assertThat(new BinlogPosition("binlog.000002", 4).isBefore(new BinlogPosition("binlog.000002", 5))).isTrue();
        assertThat(BinlogPosition.max(a, b)).isEqualTo(b);
        assertThat(BinlogPosition.min(a, b)).isEqualTo(a);
        assertThat(new BinlogPosition("x", 1).compareTo(new BinlogPosition("x", 1))).isZero();
    }
}
