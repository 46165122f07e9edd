package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;

/**
 * The enumerator's checkpoint: the split if no reader holds it, whether it was ever handed out
 * ({@code created}), and whether its snapshot phase has ended.
 */
public record MySqlCdcEnumeratorState(MySqlBinlogSplit unassigned, boolean created, boolean snapshotFinished) {}
