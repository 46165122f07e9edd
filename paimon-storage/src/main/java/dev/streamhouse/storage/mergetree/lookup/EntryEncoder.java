package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.buffer.ByteReader;
import dev.streamhouse.storage.mergetree.buffer.ByteWriter;
import dev.streamhouse.storage.types.RowType;

/**
 * What both layouts do with each record written: encode it ({@link EntryCodec}), check the key order
 * ({@link StrictKeyOrder}), hash the key and add the hash to the Bloom filter. The encoded bytes stay
 * valid until the next record. Not thread-safe.
 */
final class EntryEncoder {
    private final EntryCodec codec;
    private final StrictKeyOrder order;
    private final KeyHasher hasher;
    private final KeyBloomFilter bloomOrNull;
    private final ByteWriter scratch = new ByteWriter(256);
    private final ByteReader keyReader = new ByteReader();
    private GenericRow key;
    private long count;

    EntryEncoder(RowType keyType, RowType valueType, KeyBloomFilter bloomOrNull) {
        this.codec = new EntryCodec(keyType, valueType);
        this.order = new StrictKeyOrder(keyType);
        this.hasher = new KeyHasher(keyType);
        this.bloomOrNull = bloomOrNull;
    }

    /**
     * Encodes the next record and returns its key hash.
     *
     * @throws IllegalArgumentException if its key does not follow the previous one
     */
    long encode(KeyValue record, long rowPosition) {
        scratch.reset();
        codec.write(record, rowPosition, scratch);
        // the key as lookups will see it: decoded from the stored bytes, owning its values
        key = codec.readKey(keyReader.reset(scratch.buffer(), 0));
        order.checkNext(key, rowPosition);
        long hash = hasher.hash(key);
        if (bloomOrNull != null) {
            bloomOrNull.add(hash);
        }
        count++;
        return hash;
    }

    byte[] bytes() {
        return scratch.buffer();
    }

    int length() {
        return scratch.position();
    }

    /** The decoded key of the last record encoded. */
    GenericRow key() {
        return key;
    }

    long count() {
        return count;
    }

    KeyBloomFilter bloomOrNull() {
        return bloomOrNull;
    }

    /** The filter the settings ask for, sized for {@code expectedRecords}, or null. */
    static KeyBloomFilter bloomFor(LookupFileSettings settings, long expectedRecords) {
        return settings.bloomFilterEnabled()
                ? KeyBloomFilter.forExpectedKeys(expectedRecords, settings.bloomFilterFpp())
                : null;
    }
}
