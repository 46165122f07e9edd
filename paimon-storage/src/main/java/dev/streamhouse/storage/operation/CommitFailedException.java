package dev.streamhouse.storage.operation;

/**
 * Writing the commit's metadata failed before anything was published; the files of the attempt were
 * deleted and the table is unchanged. Retrying the same commit is safe.
 */
public final class CommitFailedException extends CommitException {
    private static final long serialVersionUID = 1L;

    public CommitFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
