package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.debezium.BinlogStart;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;

/**
 * The enumerator's checkpoint: the binlog split if no reader holds it, whether it was ever handed
 * out ({@code created}), whether its snapshot phase has ended, and for a chunked snapshot its
 * assignments ({@code chunks}) and where its binlog split will start ({@code binlogStart}); both
 * null for the other startup modes and Debezium's snapshot.
 */
public record MySqlCdcEnumeratorState(MySqlBinlogSplit unassigned, boolean created, boolean snapshotFinished,
        ChunkAssignmentState chunks, BinlogStart binlogStart) {

    public MySqlCdcEnumeratorState(MySqlBinlogSplit unassigned, boolean created, boolean snapshotFinished) {
        this(unassigned, created, snapshotFinished, null, null);
    }
}
