package dev.streamhouse.flink.cdc.mysql;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a binlog reader (Debezium's connector) starts: a file and position, and the GTID set
 * executed there where known (Debezium's MariaDB connector streams by GTID and needs it). Unlike a
 * {@link BinlogPosition} it is not ordered: it becomes Debezium's source offset (kept as JSON in the
 * binlog split's state), or a position to compare with {@link #toPosition()}.
 */
public record BinlogStartOffset(String file, long position, String gtidSet) {

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
