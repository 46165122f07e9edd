package dev.streamhouse.flink.cdc.mysql;

import java.util.LinkedHashMap;
import java.util.Map;

/** A position in the server's binlog: a file and position, and the GTID set executed there if known. */
public record BinlogOffset(String file, long position, String gtidSet) {

    /** As a Debezium binlog connector's source offset ({@code file}, {@code pos}, {@code gtids}). */
    public Map<String, Object> toDebeziumOffset() {
        Map<String, Object> offset = new LinkedHashMap<>();
        if (file != null) {
            offset.put("file", file);
            offset.put("pos", position);
        }
        if (gtidSet != null) {
            offset.put("gtids", gtidSet);
        }
        return offset;
    }

    /** The file and position, without the GTID set. */
    public BinlogPosition toPosition() {
        return new BinlogPosition(file, position);
    }

    @Override
    public String toString() {
        return (file == null ? "" : file + ":" + position) + (gtidSet == null ? "" : " gtids " + gtidSet);
    }
}
