package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.ArrayList;
import java.util.List;

/**
 * The change a compaction makes to a bucket's files: {@code before} files leave their levels (DELETE
 * entries of a COMPACT commit) and {@code after} files join the level each carries (ADD entries).
 * An upgrade lists the same file name in both, at its old and its new level. {@code changelog} holds
 * the changelog files the compaction produced ({@code changelog-producer} = lookup), which the COMPACT
 * snapshot references through its changelog manifest list (FORMAT §10).
 */
public record CompactResult(List<DataFileMeta> before, List<DataFileMeta> after, List<DataFileMeta> changelog) {

    private static final CompactResult EMPTY = new CompactResult(List.of(), List.of(), List.of());

    public CompactResult {
        before = List.copyOf(before);
        after = List.copyOf(after);
        changelog = List.copyOf(changelog);
    }

    /** A result without changelog. */
    public CompactResult(List<DataFileMeta> before, List<DataFileMeta> after) {
        this(before, after, List.of());
    }

    /** No change. */
    public static CompactResult empty() {
        return EMPTY;
    }

    /** True when the compaction changed nothing and produced no changelog. */
    public boolean isEmpty() {
        return before.isEmpty() && after.isEmpty() && changelog.isEmpty();
    }

    /** This change followed by {@code other}, as one result (lists concatenated in that order). */
    public CompactResult merge(CompactResult other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        List<DataFileMeta> b = new ArrayList<>(before);
        b.addAll(other.before);
        List<DataFileMeta> a = new ArrayList<>(after);
        a.addAll(other.after);
        List<DataFileMeta> c = new ArrayList<>(changelog);
        c.addAll(other.changelog);
        return new CompactResult(b, a, c);
    }

    /** All of {@code results} merged in order. */
    public static CompactResult mergeAll(List<CompactResult> results) {
        CompactResult merged = EMPTY;
        for (CompactResult r : results) {
            merged = merged.merge(r);
        }
        return merged;
    }
}
