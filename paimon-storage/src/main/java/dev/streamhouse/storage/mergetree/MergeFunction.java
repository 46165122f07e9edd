package dev.streamhouse.storage.mergetree;

/**
 * Combines all versions of one key into the visible result (the merge engine). Versions are added in
 * ascending sequence order (for {@code sequence.field} tables: in the order the sort decided).
 *
 * <p>Contract: {@link #reset()} starts a key; {@link #add(KeyValue)} may be called one or more times;
 * {@link #result()} returns the merged version, or null if the key has no visible value. The result
 * may reference the added objects, which the caller must not reuse until done with the result.
 * Implementations are not thread-safe.
 */
public interface MergeFunction {

    void reset();

    void add(KeyValue kv);

    /** The merged version, or null when nothing is visible (e.g. the winner is a retraction). */
    KeyValue result();
}
