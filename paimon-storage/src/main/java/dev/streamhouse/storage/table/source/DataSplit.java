package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.deletionvectors.DeletionFile;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;

/**
 * Files of one (partition, bucket) to read together: either the bucket's live files in one snapshot
 * (a batch or "full" split) or the changes one snapshot made to it (a delta split).
 *
 * <p>Engines carry splits in the binary form of
 * {@link dev.streamhouse.storage.serialization.DataSplitSerializer}, never in Java serialization: a new
 * component needs a new version of that serializer.
 *
 * @param snapshotId the snapshot the files come from (for a delta split: the snapshot that made the
 *     changes)
 * @param rawConvertible whether rows can be read file by file without merging (always for append
 *     tables and delta splits; for a full split of a primary-key table only when docs/format.md §8.2's
 *     raw-read rule holds)
 * @param delta whether the files are changes, read one after another in order without merging, every
 *     row of a primary-key table keeping its row kind (+I, -U, +U, -D): a snapshot's new data files
 *     ({@code changelog-producer} none, append tables, OVERWRITE snapshots) or its changelog files;
 *     files are in sequence-number order. False: the bucket's live files, merged on read (each
 *     key's merged row keeping the kind of its latest version, +I or +U, as in Apache Paimon 1.3), or
 *     read file by file when {@code rawConvertible} (rows then read as inserts, as Paimon reads them).
 * @param deletionFiles where the deletion vectors of the files are, one per file in the order of
 *     {@code files} (null for a file without one), from the snapshot's index manifest; set on full
 *     splits of tables with {@code deletion-vectors.enabled}. Null when the split carries none: tables
 *     without deletion vectors, delta splits, and full splits serialized before splits carried them
 *     ({@link dev.streamhouse.storage.serialization.DataSplitSerializer} version 1), whose vectors a
 *     reader looks up from the snapshot.
 * @param beforeFiles of a diff split ({@code incremental-between} of two tags, or scan mode {@code diff}): the
 *     bucket's files in the start snapshot; {@code files} then holds its files in the end snapshot. The read
 *     returns the keys whose merged version differs between the two (see {@code DiffSplitRead}). Empty for
 *     every other split (a bucket the start snapshot does not have is planned as a full split of the end's
 *     files, which is what its diff is).
 */
public record DataSplit(long snapshotId, BinaryRow partition, int bucket, int totalBuckets,
        List<DataFileMeta> files, boolean rawConvertible, boolean delta, List<DeletionFile> deletionFiles,
        List<DataFileMeta> beforeFiles)
        implements Split {

    public DataSplit {
        files = List.copyOf(files);
        beforeFiles = beforeFiles == null ? List.of() : List.copyOf(beforeFiles);
        if (!beforeFiles.isEmpty() && (delta || rawConvertible || deletionFiles != null)) {
            throw new IllegalArgumentException("Cannot build a diff split of snapshot " + snapshotId + ", bucket "
                    + bucket + " that is also a delta split, raw-convertible or carries deletion files");
        }
        if (deletionFiles != null) {
            if (deletionFiles.size() != files.size()) {
                throw new IllegalArgumentException("Cannot build a split of snapshot " + snapshotId + ", bucket "
                        + bucket + ": " + deletionFiles.size() + " deletion files for " + files.size() + " data files");
            }
            if (delta) {
                throw new IllegalArgumentException("Cannot build a delta split of snapshot " + snapshotId + ", bucket "
                        + bucket + " with deletion files: the changes of a snapshot are read without deletion vectors");
            }
            // may hold nulls, so not List.copyOf
            deletionFiles = Collections.unmodifiableList(new ArrayList<>(deletionFiles));
        }
    }

    /** A split that is not a diff split. */
    public DataSplit(long snapshotId, BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files,
            boolean rawConvertible, boolean delta, List<DeletionFile> deletionFiles) {
        this(snapshotId, partition, bucket, totalBuckets, files, rawConvertible, delta, deletionFiles, List.of());
    }

    /** Whether this split holds the difference of a bucket between two snapshots ({@link #beforeFiles}). */
    public boolean diff() {
        return !beforeFiles.isEmpty();
    }

    /** A split that carries no deletion files. */
    public DataSplit(long snapshotId, BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files,
            boolean rawConvertible, boolean delta) {
        this(snapshotId, partition, bucket, totalBuckets, files, rawConvertible, delta, null);
    }

    /** A full split without deletion files: the live files of a bucket in one snapshot. */
    public DataSplit(long snapshotId, BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files,
            boolean rawConvertible) {
        this(snapshotId, partition, bucket, totalBuckets, files, rawConvertible, false, null);
    }

    /**
     * How many rows a read of this full split returns, known from the files' metadata alone: for a
     * raw-convertible split (no merge: its files hold no retractions and no key twice, see
     * {@code RawReadRule}) the files' row counts less the rows their deletion vectors delete. Empty
     * when the rows must be merged or read to be counted: a split that is not raw-convertible, a delta
     * or diff split, or a deletion vector whose cardinality the index manifest does not record.
     *
     * <p>Only for splits planned by this version: a split serialized before splits carried their
     * deletion files ({@code DataSplitSerializer} version 1) does not know its vectors.
     */
    public OptionalLong mergedRowCount() {
        if (!rawConvertible || delta || diff()) {
            return OptionalLong.empty();
        }
        long n = 0;
        for (int i = 0; i < files.size(); i++) {
            n += files.get(i).rowCount();
            DeletionFile deletions = deletionFiles == null ? null : deletionFiles.get(i);
            if (deletions != null) {
                if (deletions.cardinality() == null) {
                    return OptionalLong.empty();
                }
                n -= deletions.cardinality();
            }
        }
        return OptionalLong.of(n);
    }

    /**
     * When the oldest of the split's files was written, as epoch millis (the files record the writer's
     * local wall-clock time; it is read in this JVM's time zone, as Paimon reads it); empty when no file
     * records it. Streaming readers measure how far behind the writers they are with it.
     */
    public OptionalLong earliestFileCreationEpochMillis() {
        long earliest = Long.MAX_VALUE;
        for (DataFileMeta f : files) {
            Long local = f.creationTimeMillis();
            if (local != null) {
                earliest = Math.min(earliest, local);
            }
        }
        if (earliest == Long.MAX_VALUE) {
            return OptionalLong.empty();
        }
        java.time.LocalDateTime local = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(earliest, 1000),
                (int) Math.floorMod(earliest, 1000) * 1_000_000, java.time.ZoneOffset.UTC);
        return OptionalLong.of(local.atZone(java.time.ZoneId.systemDefault()).toInstant().toEpochMilli());
    }

    @Override
    public long rowCount() {
        long n = 0;
        for (DataFileMeta f : files) {
            n += f.rowCount();
        }
        return n;
    }
}
