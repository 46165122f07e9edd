package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.fs.Path;

/**
 * A manifest, manifest list or index manifest cannot be used: it is truncated, not Avro, lacks a
 * required field, has an unsupported {@code _VERSION}, or (for the live file set) adds the same file
 * twice. Retrying does not help and nothing is deleted; the message names the file and the table.
 */
public final class CorruptManifestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Path file;

    public CorruptManifestException(Path file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /** The offending file. */
    public Path file() {
        return file;
    }
}
