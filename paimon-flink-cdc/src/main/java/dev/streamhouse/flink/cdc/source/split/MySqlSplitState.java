package dev.streamhouse.flink.cdc.source.split;

/** The mutable state of a split a reader is reading; {@link #toSplit()} is what a checkpoint keeps. */
public sealed interface MySqlSplitState permits MySqlChunkSplitState, MySqlBinlogSplitState {

    MySqlSplit toSplit();
}
