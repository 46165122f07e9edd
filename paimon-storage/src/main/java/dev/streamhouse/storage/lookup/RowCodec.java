package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.ProjectedRow;
import dev.streamhouse.storage.mergetree.buffer.ByteReader;
import dev.streamhouse.storage.mergetree.buffer.ByteWriter;
import dev.streamhouse.storage.mergetree.buffer.RowSerializer;
import dev.streamhouse.storage.types.RowType;

import java.util.Arrays;

/**
 * Encodes chosen fields of rows to bytes and back, in {@link RowSerializer}'s self-delimiting form:
 * equal values give equal bytes, and no encoding is a proper prefix of another of the same fields, so
 * an encoded key followed by more bytes can be found by its prefix. Thread-safe.
 */
final class RowCodec {
    private final RowSerializer serializer;
    private final int[] positions;
    private final boolean identity;
    private final ThreadLocal<ByteWriter> writers = ThreadLocal.withInitial(() -> new ByteWriter(64));
    private final ThreadLocal<ProjectedRow> projections;

    /** Encodes the fields at {@code positions} of rows of {@code rowType}. */
    RowCodec(RowType rowType, int[] positions) {
        this.serializer = new RowSerializer(rowType.project(positions));
        this.positions = positions.clone();
        this.identity = isIdentity(positions, rowType.fieldCount());
        this.projections = ThreadLocal.withInitial(() -> new ProjectedRow(this.positions));
    }

    /** Encodes whole rows of {@code rowType}. */
    static RowCodec wholeRows(RowType rowType) {
        int[] all = new int[rowType.fieldCount()];
        Arrays.setAll(all, i -> i);
        return new RowCodec(rowType, all);
    }

    private static boolean isIdentity(int[] positions, int arity) {
        if (positions.length != arity) {
            return false;
        }
        for (int i = 0; i < positions.length; i++) {
            if (positions[i] != i) {
                return false;
            }
        }
        return true;
    }

    byte[] encode(InternalRow row) {
        ByteWriter out = writers.get();
        out.reset();
        serializer.serialize(identity ? row : projections.get().replace(row), out);
        return Arrays.copyOf(out.buffer(), out.position());
    }

    /** Whether any of the encoded fields of {@code row} is NULL. */
    boolean anyNull(InternalRow row) {
        for (int p : positions) {
            if (row.isNullAt(p)) {
                return true;
            }
        }
        return false;
    }

    /** Decodes bytes of {@link #encode} (of whole rows) into a row of the encoded fields. */
    InternalRow decode(byte[] bytes) {
        return serializer.deserialize(new ByteReader(bytes, 0));
    }

    /** Decodes only the first {@code fields} encoded fields. */
    InternalRow decodePrefix(byte[] bytes, int fields) {
        return serializer.deserializePrefix(new ByteReader(bytes, 0), fields);
    }
}
