package dev.streamhouse.flink.source.split.v1;

import java.io.Serializable;

/**
 * The Java-serialized form of storage's {@code BinaryRow} in split serializer version 1, frozen: the
 * row bytes and arity ({@code nullBitsSizeInBytes} was stored too; it follows from the arity).
 */
final class BinaryRow implements Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[] bytes;
    private final int arity;
    private final int nullBitsSizeInBytes;

    private BinaryRow(byte[] bytes, int arity, int nullBitsSizeInBytes) {
        this.bytes = bytes;
        this.arity = arity;
        this.nullBitsSizeInBytes = nullBitsSizeInBytes;
    }

    byte[] bytes() {
        return bytes;
    }

    int arity() {
        return arity;
    }
}
