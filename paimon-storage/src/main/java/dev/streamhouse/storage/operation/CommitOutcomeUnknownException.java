package dev.streamhouse.storage.operation;

/**
 * Publishing the snapshot failed in a way that leaves it unknown whether the snapshot exists. Nothing
 * was deleted. Check with {@code filterCommitted} (same commit user and identifier) before retrying.
 */
public final class CommitOutcomeUnknownException extends CommitException {
    private static final long serialVersionUID = 1L;

    public CommitOutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
