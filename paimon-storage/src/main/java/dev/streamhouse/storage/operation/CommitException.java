package dev.streamhouse.storage.operation;

/**
 * A commit did not (certainly) happen. The subclass says what the caller may do:
 * {@link CommitConflictException} — lost to concurrent commits, files cleaned up, may retry with
 * fresh input; {@link InvalidCommitException} — the commit can never succeed, do not retry;
 * {@link CommitOutcomeUnknownException} — the snapshot may or may not exist, nothing was deleted,
 * ask {@code filterCommitted} before retrying.
 */
public abstract class CommitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected CommitException(String message, Throwable cause) {
        super(message, cause);
    }
}
