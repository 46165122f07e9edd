package dev.streamhouse.storage.operation;

/** The commit conflicted with concurrent commits (or kept losing the race) and was given up. */
public final class CommitConflictException extends CommitException {
    private static final long serialVersionUID = 1L;

    public CommitConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
