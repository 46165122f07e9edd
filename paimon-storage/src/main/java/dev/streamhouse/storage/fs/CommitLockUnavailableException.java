package dev.streamhouse.storage.fs;

import java.io.IOException;

/**
 * A table's commit lock could not be taken (another committer held it past the timeout, or the lock's
 * store could not be reached), so the file to publish was not written at all: unlike other failures of
 * {@link FileIO#createIfAbsent}, there is no doubt about the outcome, and a committer reports it as it is
 * instead of retrying as if it had lost a race.
 */
public class CommitLockUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    public CommitLockUnavailableException(String message) {
        super(message);
    }

    public CommitLockUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
