package dev.streamhouse.flink.cdc.source.enumerator;

/**
 * When the binlog split may follow the chunks. With several readers, a chunk's rows and the binlog
 * changes after it come from different readers: the binlog starts only once a checkpoint taken
 * after the last chunk was emitted has completed. Then no chunk is read again by a reader restoring
 * alone (its restore point already holds every chunk), and with aligned checkpoints every chunk row
 * reaches the next operator before any binlog change. Without checkpoints (none seen since the
 * enumerator started) or with one reader, the binlog starts right away.
 */
final class BinlogStartGate {

    private final int parallelism;
    private boolean checkpointsSeen;
    private long checkpointAfterChunks = -1;
    private boolean passed;

    BinlogStartGate(int parallelism, boolean restored) {
        this.parallelism = parallelism;
        this.checkpointsSeen = restored;
    }

    /** A checkpoint is being taken; {@code chunksDone} when every chunk is emitted at this point. */
    void checkpointTriggered(long checkpointId, boolean chunksDone) {
        checkpointsSeen = true;
        if (!chunksDone) {
            reset();
        } else if (checkpointAfterChunks < 0) {
            checkpointAfterChunks = checkpointId;
        }
    }

    void checkpointCompleted(long checkpointId) {
        if (checkpointAfterChunks >= 0 && checkpointId >= checkpointAfterChunks) {
            passed = true;
        }
    }

    /** Some chunk is not emitted (any more): wait for a checkpoint after it again. */
    void reset() {
        checkpointAfterChunks = -1;
        passed = false;
    }

    boolean isOpen() {
        return parallelism <= 1 || !checkpointsSeen || passed;
    }

    /** Why the binlog waits, for the log. */
    String waitingFor() {
        return checkpointAfterChunks < 0 ? "a checkpoint after the last chunk"
                : "checkpoint " + checkpointAfterChunks + " to complete";
    }
}
