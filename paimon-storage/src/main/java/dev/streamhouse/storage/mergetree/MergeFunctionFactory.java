package dev.streamhouse.storage.mergetree;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.options.ChangelogOptions.ChangelogProducer;

import java.io.Serializable;

/**
 * A table's merge engine: it creates the merge functions (one per reader or writer) and declares
 * what the rest of the store may assume about its merges. This is the one place an engine's
 * knowledge lives; scan planning, merge-on-read and writers ask it instead of testing the
 * {@code merge-engine} option. A new engine is one factory (registered in
 * {@code mergetree.engine.MergeEngines}) answering these questions.
 */
public interface MergeFunctionFactory extends Serializable {

    /** A merge function over value rows of the fields this factory was {@link #forReadFields bound} to (all by default). */
    MergeFunction create();

    /**
     * Whether a key with a single version always merges to exactly that version, retractions
     * included. Then a sorted run (whose keys are unique) merged on its own is the run itself, and
     * readers skip merging it. True for every engine of this store: as in Apache Paimon, a lone
     * version is never merged ({@code mergetree.engine.SingleVersionAsIs}).
     */
    default boolean keepsSingleVersion() {
        return true;
    }

    /**
     * Whether files above level 0 without retractions may be read without merging even when they lie
     * on different levels (first-row: its writer drops every later version of a stored key, so files
     * above level 0 never share a key), docs/format.md §8.2. False means such files are raw only when all are on one level.
     */
    default boolean rawReadAcrossLevels() {
        return false;
    }

    /**
     * Whether every merged row is one of the key's stored versions, unchanged (deduplicate,
     * first-row). Then a value filter may drop a whole bucket in which no file may hold a matching
     * row; engines that combine versions (partial-update, aggregation) make rows no file holds.
     */
    default boolean mergedRowIsStoredVersion() {
        return false;
    }

    /**
     * Whether the latest change of a key that the snapshots record is the key's merged row (or its
     * deletion), so that a copy of the table (a lookup-join cache) can follow it by applying each
     * snapshot's changes in order (deduplicate). Engines whose merged row combines versions, or keeps
     * the first one, need the merge itself.
     */
    default boolean latestChangeIsMergedRow() {
        return false;
    }

    /**
     * Why the engine cannot take written rows of {@code kind} (e.g. partial-update without delete
     * options refuses -D), or null when it can. Writers refuse such rows before they are buffered, so
     * a merge never meets them.
     */
    default String refusesInput(RowKind kind) {
        return null;
    }

    /**
     * Whether the engine needs the -U rows of an update to retract the old values (aggregation), so a
     * writer keeps them instead of treating the +U as an upsert.
     */
    default boolean retractsUpdateBefore() {
        return false;
    }

    /**
     * Whether a batch read sees level-0 files. Engines whose writer keeps every key once in the levels
     * above (first-row) are read from those levels only, as Apache Paimon reads them.
     */
    default boolean readsLevelZero() {
        return true;
    }

    /** Whether the engine supports {@code changelog-producer} = {@code producer}. */
    default boolean supportsChangelogProducer(ChangelogProducer producer) {
        return true;
    }

    /**
     * The value fields (positions in the table row) a merge-on-read must read to produce
     * {@code wanted}, the wanted ones first in their order: {@code wanted} itself for an engine that
     * takes one version whole; an engine that merges field by field may need more (e.g. the sequence
     * group of a wanted field), or all fields ({@code fieldCount}).
     */
    default int[] readFields(int[] wanted, int fieldCount) {
        return wanted.clone();
    }

    /**
     * This engine over value rows of {@code readFields} (what {@link #readFields} returned, possibly
     * widened by the reader, e.g. with {@code sequence.field}): merge-on-read with projection. The
     * default suits engines that never look inside a version.
     */
    default MergeFunctionFactory forReadFields(int[] readFields) {
        return this;
    }
}
