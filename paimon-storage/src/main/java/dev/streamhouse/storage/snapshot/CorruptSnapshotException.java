package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.fs.Path;

/**
 * A snapshot file exists but cannot be understood (truncated, not JSON, a required member missing,
 * or an id that does not match the file name). Retrying does not help; nothing is deleted. The message
 * names the file and the table.
 */
public final class CorruptSnapshotException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Path file;

    public CorruptSnapshotException(Path file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /** The unreadable snapshot file. */
    public Path file() {
        return file;
    }
}
