package dev.streamhouse.flink.source.split;

/**
 * The mutable progress of a split being read: how many of its records were emitted so far, counting
 * those skipped on restore. Owned by the reader's task thread, which counts each record as it emits it,
 * so a checkpoint taken between two records sees exactly the records that went downstream.
 */
public final class PaimonSplitState {
    private final PaimonSplit split;
    private long emittedRecords;

    public PaimonSplitState(PaimonSplit split) {
        this.split = split;
        this.emittedRecords = split.recordsToSkip();
    }

    /** Called once for every record of the split that was emitted. */
    public void recordEmitted() {
        emittedRecords++;
    }

    public long emittedRecords() {
        return emittedRecords;
    }

    /** The split to checkpoint: a restore skips what was emitted. */
    public PaimonSplit toSplit() {
        return split.withRecordsToSkip(emittedRecords);
    }
}
