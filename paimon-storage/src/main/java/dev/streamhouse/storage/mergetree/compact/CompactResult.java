package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.deletionvectors.DeletionMarks;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.ArrayList;
import java.util.List;

/**
 * The change a compaction makes to a bucket's files: {@code before} files leave their levels (DELETE
 * entries of a COMPACT commit) and {@code after} files join the level each carries (ADD entries).
 * An upgrade lists the same file name in both, at its old and its new level. {@code changelog} holds
 * the changelog files the compaction produced ({@code changelog-producer} = lookup), which the COMPACT
 * snapshot references through its changelog manifest list (docs/format.md §10). {@code deletions} are the rows
 * it marks deleted in files it does not touch ({@code deletion-vectors.enabled}).
 */
public record CompactResult(List<DataFileMeta> before, List<DataFileMeta> after, List<DataFileMeta> changelog,
        DeletionMarks deletions) {

    private static final CompactResult EMPTY = new CompactResult(List.of(), List.of(), List.of(), DeletionMarks.NONE);

    public CompactResult {
        before = List.copyOf(before);
        after = List.copyOf(after);
        changelog = List.copyOf(changelog);
        deletions = deletions == null ? DeletionMarks.NONE : deletions;
    }

    /** A result that marks no rows deleted. */
    public CompactResult(List<DataFileMeta> before, List<DataFileMeta> after, List<DataFileMeta> changelog) {
        this(before, after, changelog, DeletionMarks.NONE);
    }

    /** A result without changelog. */
    public CompactResult(List<DataFileMeta> before, List<DataFileMeta> after) {
        this(before, after, List.of());
    }

    /** No change. */
    public static CompactResult empty() {
        return EMPTY;
    }

    /** This result, marking {@code marks} deleted as well. */
    public CompactResult withDeletions(DeletionMarks marks) {
        return marks.isEmpty() ? this : new CompactResult(before, after, changelog, deletions.merge(marks));
    }

    /** True when the compaction changed nothing, produced no changelog and deleted no rows. */
    public boolean isEmpty() {
        return before.isEmpty() && after.isEmpty() && changelog.isEmpty() && deletions.isEmpty();
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
        return new CompactResult(b, a, c, deletions.merge(other.deletions));
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
