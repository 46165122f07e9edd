package dev.streamhouse.flink.cdc.mysql.snapshot;

/** A table cannot be snapshot in chunks (no primary key, or a key whose order cannot be reproduced). */
public final class UnsupportedChunkKeyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnsupportedChunkKeyException(String message) {
        super(message);
    }
}
