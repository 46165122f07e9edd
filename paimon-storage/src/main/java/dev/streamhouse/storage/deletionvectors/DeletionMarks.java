package dev.streamhouse.storage.deletionvectors;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Rows that a compaction marks deleted in files it does not rewrite: the older versions of the keys it
 * moves out of level 0, found by lookup in the levels above ({@code deletion-vectors.enabled}). They
 * take effect when the compaction's result is applied ({@link BucketDeletionVectors#apply}), so a
 * compaction that fails or is cancelled deletes nothing. Immutable.
 */
public final class DeletionMarks {
    public static final DeletionMarks NONE = new DeletionMarks(Map.of());

    private final Map<String, BitmapDeletionVector> byFile;

    private DeletionMarks(Map<String, BitmapDeletionVector> byFile) {
        this.byFile = byFile;
    }

    /** The newly deleted positions by data file name. */
    public Map<String, BitmapDeletionVector> byFile() {
        return byFile;
    }

    public boolean isEmpty() {
        return byFile.isEmpty();
    }

    /** These marks and {@code other}'s together. */
    public DeletionMarks merge(DeletionMarks other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        Map<String, BitmapDeletionVector> merged = new LinkedHashMap<>(byFile);
        other.byFile.forEach((file, vector) -> merged.merge(file, vector,
                (a, b) -> a.toBuilder().merge(b).build()));
        return new DeletionMarks(Map.copyOf(merged));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeletionMarks other && byFile.equals(other.byFile);
    }

    @Override
    public int hashCode() {
        return byFile.hashCode();
    }

    @Override
    public String toString() {
        return "DeletionMarks" + byFile;
    }

    /** Collects the marks of one compaction call. Not thread-safe. */
    public static final class Builder {
        private final Map<String, BitmapDeletionVector.Builder> byFile = new HashMap<>();

        /** Marks row {@code position} of data file {@code fileName} deleted. */
        public void mark(String fileName, long position) {
            byFile.computeIfAbsent(fileName, f -> BitmapDeletionVector.builder()).delete(position);
        }

        public DeletionMarks build() {
            if (byFile.isEmpty()) {
                return NONE;
            }
            Map<String, BitmapDeletionVector> out = new HashMap<>();
            byFile.forEach((file, builder) -> out.put(file, builder.build()));
            return new DeletionMarks(Map.copyOf(out));
        }
    }
}
