package dev.streamhouse.flink.source.split;

/**
 * The mutable progress of a split being read: how many of its records were emitted so far, counting
 * those skipped on restore. Owned by the reader's task thread, which counts each record as it emits it,
 * so a checkpoint taken between two records sees exactly the records that went downstream.
 */
public final class PaimonSplitState {
    private final PaimonSplit split;
    private long emittedRecords;
    /** {@link #eventTime()} once computed; Long.MIN_VALUE (no timestamp) when the files do not record it. */
    private long eventTime;
    private boolean eventTimeKnown;

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

    /**
     * The timestamp its records carry downstream, as Paimon's source gives them: when the oldest file of
     * the split was written (epoch millis), or {@code Long.MIN_VALUE} (no timestamp) if its files do not
     * record it. Flink measures FLIP-33's {@code currentEmitEventTimeLag} from it.
     */
    public long eventTime() {
        if (!eventTimeKnown) {
            eventTime = split.dataSplit().earliestFileCreationEpochMillis().orElse(Long.MIN_VALUE);
            eventTimeKnown = true;
        }
        return eventTime;
    }

    /** The split to checkpoint: a restore skips what was emitted. */
    public PaimonSplit toSplit() {
        return split.withRecordsToSkip(emittedRecords);
    }
}
