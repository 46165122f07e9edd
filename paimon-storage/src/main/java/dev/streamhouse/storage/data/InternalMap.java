package dev.streamhouse.storage.data;

/** A map as two parallel arrays of keys and values. */
public interface InternalMap {
    int size();

    InternalArray keyArray();

    InternalArray valueArray();
}
