package dev.streamhouse.storage.data;

/** An array of internal values. */
public interface InternalArray extends DataGetters {
    int size();
}
