package dev.streamhouse.storage.fs;

/**
 * A file of a table cannot be used: truncated, malformed, or inconsistent with its name or with other
 * files. Retrying does not help and nothing is deleted; the message names the file and the table (and,
 * for a file of one partition and bucket, those), and what is wrong. The subclasses say which kind of
 * file it is; a plain {@code CorruptFileException} wraps one of them to add where it was needed.
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
