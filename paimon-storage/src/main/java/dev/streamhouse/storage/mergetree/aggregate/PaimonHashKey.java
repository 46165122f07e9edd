package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.utils.MurmurHash;

import java.util.Objects;

/**
 * An atomic internal value as a hash key with the hash code and equality Apache Paimon's own value
 * objects have. {@code collect} with {@code distinct} and {@code merge_map} put values into a
 * {@link java.util.HashSet} or {@link java.util.HashMap} and write them out in its iteration order; with
 * these keys that order is Paimon's, element for element.
 *
 * <p>Paimon's hash codes: the boxed value's for BOOLEAN, numbers, DATE and TIME; MurmurHash3 (seed 42)
 * of the UTF-8 bytes for strings; {@link java.math.BigDecimal#hashCode()} for decimals; the
 * millisecond's long hash times 31 plus the nanoseconds for timestamps. Binary values ({@code byte[]})
 * are Java arrays there: equal only to themselves, with an identity hash, so Paimon neither deduplicates
 * nor merges them, and orders them at random. These keys do the same.
 */
final class PaimonHashKey {
    private final Object value;
    private final boolean identity;
    private final int hash;

    private PaimonHashKey(Object value, boolean identity, int hash) {
        this.value = value;
        this.identity = identity;
        this.hash = hash;
    }

    /** The key of {@code value} (may be null) of the atomic type {@code type}. */
    static PaimonHashKey of(Object value, DataType type) {
        if (value == null) {
            return new PaimonHashKey(null, false, 0);
        }
        switch (type.root()) {
            case CHAR:
            case VARCHAR: {
                BinaryString s = (BinaryString) value;
                return new PaimonHashKey(value, false, MurmurHash.hashBytes(s.rawBytes(), s.rawOffset(), s.byteLength()));
            }
            case DECIMAL:
                return new PaimonHashKey(value, false, ((Decimal) value).toBigDecimal().hashCode());
            case BINARY:
            case VARBINARY:
                return new PaimonHashKey(value, true, System.identityHashCode(value));
            default:
                // Boxed primitives and Timestamp hash as Paimon's do.
                return new PaimonHashKey(value, false, value.hashCode());
        }
    }

    Object value() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PaimonHashKey)) {
            return false;
        }
        PaimonHashKey that = (PaimonHashKey) o;
        return identity ? value == that.value : Objects.equals(value, that.value);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return String.valueOf(value);
    }
}
