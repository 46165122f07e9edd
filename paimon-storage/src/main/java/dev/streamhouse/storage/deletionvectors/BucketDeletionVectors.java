package dev.streamhouse.storage.deletionvectors;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.read.DeletionVector;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deletion vectors of one bucket as its writer keeps them ({@code deletion-vectors.enabled}):
 * loaded from the bucket's index file in the snapshot the writer starts from, changed by the results
 * of its compactions ({@link #apply}), and written as the bucket's new index file when a commit is
 * prepared ({@link #writeIfChanged}), replacing the one the vectors were last loaded from or written
 * to. A bucketed table keeps one index file per bucket (docs/format.md §9.2).
 *
 * <p>As a {@link DeletionVector.Source} it gives the current vectors, for the bucket's compactions
 * to skip deleted rows of the files they read, and {@link #isDeleted} tells lookups whether a version
 * they found is still live.
 *
 * <p>Threading: the writer thread applies results and writes; a compaction thread reads while no
 * result is being applied (the writer applies a result only after its compaction finished). The map
 * is concurrent and vectors are immutable, so reads are safe regardless.
 */
public final class BucketDeletionVectors implements DeletionVector.Source {
    private final Map<String, BitmapDeletionVector> vectors = new ConcurrentHashMap<>();
    private final DeletionVectorIndexFile files;
    /** The index files the current committed state lives in (at most one for a bucketed table). */
    private List<IndexFileMeta> indexFiles;
    private boolean changed;

    private BucketDeletionVectors(DeletionVectorIndexFile files, Map<String, BitmapDeletionVector> vectors,
            List<IndexFileMeta> indexFiles) {
        this.files = files;
        vectors.forEach((file, vector) -> {
            if (!vector.isEmpty()) {
                this.vectors.put(file, vector);
            }
        });
        this.indexFiles = List.copyOf(indexFiles);
    }

    /**
     * The vectors stored in {@code indexFiles}, the bucket's deletion-vector index files of one snapshot
     * (none for a new bucket); {@code files} reads them and writes their successors.
     */
    public static BucketDeletionVectors load(DeletionVectorIndexFile files, List<IndexFileMeta> indexFiles)
            throws IOException {
        Map<String, BitmapDeletionVector> vectors = new TreeMap<>();
        for (IndexFileMeta index : indexFiles) {
            vectors.putAll(files.read(index));
        }
        return new BucketDeletionVectors(files, vectors, indexFiles);
    }

    @Override
    public DeletionVector of(BinaryRow partition, int bucket, DataFileMeta file) {
        return vectors.get(file.fileName());
    }

    /** The current vector of a data file, or null if none of its rows is deleted. */
    public BitmapDeletionVector vectorOf(String fileName) {
        return vectors.get(fileName);
    }

    /** Whether row {@code position} of data file {@code fileName} is deleted. */
    public boolean isDeleted(String fileName, long position) {
        BitmapDeletionVector v = vectors.get(fileName);
        return v != null && v.isDeleted(position);
    }

    /**
     * Applies a compaction's result: the vectors of the files it removed go ({@code before} files whose
     * names are not among {@code after}: an upgraded file keeps its name and its vector), and its marks
     * are added.
     */
    public void apply(Collection<DataFileMeta> before, Collection<DataFileMeta> after, DeletionMarks marks) {
        java.util.Set<String> kept = new java.util.HashSet<>();
        for (DataFileMeta f : after) {
            kept.add(f.fileName());
        }
        for (DataFileMeta f : before) {
            if (!kept.contains(f.fileName()) && vectors.remove(f.fileName()) != null) {
                changed = true;
            }
        }
        marks.byFile().forEach((file, vector) -> {
            BitmapDeletionVector old = vectors.get(file);
            vectors.put(file, old == null ? vector : old.toBuilder().merge(vector).build());
            changed = true;
        });
    }

    /** What a commit changes in the bucket's index files. */
    public record IndexChange(List<IndexFileMeta> newFiles, List<IndexFileMeta> deletedFiles) {
        public static final IndexChange NONE = new IndexChange(List.of(), List.of());
    }

    /**
     * If the vectors changed since they were loaded or last written: writes them all to one new index
     * file (none if no vector is left) and returns it with the index files it replaces; those become
     * the bucket's current files. Otherwise {@link IndexChange#NONE}.
     */
    public IndexChange writeIfChanged() throws IOException {
        if (!changed) {
            return IndexChange.NONE;
        }
        List<IndexFileMeta> written = vectors.isEmpty() ? List.of() : List.of(files.write(new TreeMap<>(vectors)));
        IndexChange change = new IndexChange(written, indexFiles);
        indexFiles = written;
        changed = false;
        return change;
    }
}
