package dev.streamhouse.storage.fs;

/**
 * A metadata file cannot be used: truncated, malformed, or inconsistent with its name or with other
 * files. Retrying does not help and nothing is deleted; the message names the file and the table.
 */
public class CorruptFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Path file;

    public CorruptFileException(Path file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /** The offending file. */
    public Path file() {
        return file;
    }
}
