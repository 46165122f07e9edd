package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.Path;

/** A tag file that cannot be read as a tag (docs/format.md §11.1); the message names the file and the table. */
public final class CorruptTagException extends CorruptFileException {
    private static final long serialVersionUID = 1L;

    public CorruptTagException(Path file, String message, Throwable cause) {
        super(file, message, cause);
    }
}
