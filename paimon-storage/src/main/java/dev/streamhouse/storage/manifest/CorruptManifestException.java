package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.Path;

/**
 * A manifest, manifest list or index manifest cannot be used: it is truncated, not Avro, lacks a
 * required field, has an unsupported {@code _VERSION}, or (for the live file set) adds the same file
 * twice. Retrying does not help and nothing is deleted; the message names the file and the table.
 */
public final class CorruptManifestException extends CorruptFileException {
    private static final long serialVersionUID = 1L;

    public CorruptManifestException(Path file, String message, Throwable cause) {
        super(file, message, cause);
    }
}
