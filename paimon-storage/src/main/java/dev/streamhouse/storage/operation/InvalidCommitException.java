package dev.streamhouse.storage.operation;

/** The commit can never succeed as given (e.g. it deletes a file that is not live). */
public final class InvalidCommitException extends CommitException {
    private static final long serialVersionUID = 1L;

    public InvalidCommitException(String message) {
        super(message, null);
    }
}
