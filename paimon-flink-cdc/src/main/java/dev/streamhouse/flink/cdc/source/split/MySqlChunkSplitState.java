package dev.streamhouse.flink.cdc.source.split;

import dev.streamhouse.flink.cdc.mysql.BinlogPosition;

/**
 * The state of a chunk being read: the split, and its high watermark once its rows were emitted
 * (the emitter sets it in the same step that emits them, so a checkpoint sees the chunk either
 * unread or emitted, never half emitted).
 */
public final class MySqlChunkSplitState implements MySqlSplitState {

    private final MySqlChunkSplit split;
    private BinlogPosition emittedAsOf;

    public MySqlChunkSplitState(MySqlChunkSplit split) {
        this.split = split;
        this.emittedAsOf = split.highWatermark();
    }

    public MySqlChunkSplit split() {
        return split;
    }

    public void emitted(BinlogPosition highWatermark) {
        this.emittedAsOf = highWatermark;
    }

    public boolean isEmitted() {
        return emittedAsOf != null;
    }

    @Override
    public MySqlChunkSplit toSplit() {
        return emittedAsOf == null || emittedAsOf.equals(split.highWatermark()) ? split
                : split.withHighWatermark(emittedAsOf);
    }
}
