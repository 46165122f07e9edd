package dev.streamhouse.storage.mergetree;

/**
 * Combines all versions of one key into the visible result (the merge engine). Versions are added in
 * ascending sequence order (for {@code sequence.field} tables: in the order the sort decided).
 *
 * <p>Contract: {@link #reset()} starts a key; {@link #add(KeyValue)} may be called one or more times;
 * {@link #result()} returns the merged version — which may be a retraction (-U/-D), kept so that
 * compactions above older levels still delete them; table reads drop retractions — or null when
 * nothing remains (e.g. every version was ignored). The result
 * may reference the added objects, which the caller must not reuse until done with the result.
 * Implementations are not thread-safe.
 */
public interface MergeFunction {

    void reset();

    void add(KeyValue kv);

    /** The merged version (possibly a retraction), or null when no version remains. */
    KeyValue result();

    /**
     * Whether {@link #result()} is always the last version added, unchanged (deduplicate without
     * {@code ignore-delete}). Then a caller holding a key's versions in order may add only the last one
     * and leave the others undecoded (the write buffer's flush does).
     */
    default boolean resultIsLastVersion() {
        return false;
    }
}
