package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.Path;

/**
 * A snapshot file exists but cannot be understood (truncated, not JSON, a required member missing,
 * or an id that does not match the file name). Retrying does not help; nothing is deleted. The message
 * names the file and the table.
 */
public final class CorruptSnapshotException extends CorruptFileException {
    private static final long serialVersionUID = 1L;

    public CorruptSnapshotException(Path file, String message, Throwable cause) {
        super(file, message, cause);
    }
}
