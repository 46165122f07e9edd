package dev.streamhouse.flink.cdc.debezium;

import java.util.List;

/**
 * Where a binlog connector starts and the schemas it starts with: a Debezium source offset (JSON)
 * and Debezium schema history records (JSON documents) as of that offset.
 */
public record BinlogStart(String offsetJson, List<String> history) {

    public BinlogStart {
        history = List.copyOf(history);
    }
}
