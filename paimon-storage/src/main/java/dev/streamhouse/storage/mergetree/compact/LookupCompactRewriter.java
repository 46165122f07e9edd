package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.deletionvectors.BucketDeletionVectors;
import dev.streamhouse.storage.deletionvectors.DeletionMarks;
import dev.streamhouse.storage.mergetree.lookup.KeyLookup;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.SortedRun;
import dev.streamhouse.storage.mergetree.io.KeyValueFileWriterFactory;
import dev.streamhouse.storage.mergetree.io.RollingKeyValueFileWriter;
import dev.streamhouse.storage.mergetree.read.MergeTreeReaders;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Compacts a bucket of a table whose compactions look up older versions of the keys they move out of
 * level 0: {@code changelog-producer} = lookup (which writes the changelog of those keys), the
 * first-row engine (which keeps each key once above level 0) and {@code force-lookup}. The rules are
 * Apache Paimon 1.3's, so both stores read and continue each other's tables.
 *
 * <ul>
 *   <li><b>Rewrite</b> of sections holding a level-0 file to a level above 0: each key is merged by a
 *       {@link CollectingMerge} (the version on the smallest level above 0 is the key's whole value;
 *       without one, the newest version on the levels above the output level is looked up) and, with
 *       a changelog, its change is written to changelog files on the output level.
 *   <li>Rewrite of other sections (no level 0, or output level 0): the same merge, without lookups or
 *       changelog.
 *   <li><b>Upgrade</b> of a level-0 file: its keys are looked up as in a rewrite; the file is moved
 *       unchanged when its versions are already what a rewrite would write (output on the last level,
 *       where nothing lies above, or deduplicate without {@code sequence.field}), else rewritten.
 *       Files above level 0 are moved without reading them.
 *   <li><b>Deletion vectors</b> ({@link Builder#deletionVectors}): the older version a lookup finds is
 *       marked deleted in the result instead of being merged away at read time; a level-0 file that may
 *       hold retractions is rewritten when upgraded (retractions are never kept above level 0 then).
 * </ul>
 *
 * A rewriter is made {@link #forCompaction for each compaction}, with the files the compaction does
 * not touch; lookups go to those on levels above the output level. Failures abort the writers of the
 * call (deleting their files) and leave the inputs alone.
 */
public final class LookupCompactRewriter implements CompactRewriter {

    /** Opens a lookup over files above a compaction's output level (several levels, each one sorted run). */
    @FunctionalInterface
    public interface Lookups {
        /** A lookup over {@code files}; closed by the caller if it is {@link AutoCloseable}. */
        KeyLookup open(BinaryRow partition, int bucket, List<DataFileMeta> files) throws IOException;
    }

    private final BinaryRow partition;
    private final int bucket;
    private final MergeTreeReaders readers;
    private final KeyValueFileWriterFactory writers;
    private final FileIO fileIO;
    private final DataFilePathFactory pathFactory;
    private final Supplier<CollectingMerge> merges;
    private final Lookups lookups;
    private final int maxLevel;
    private final boolean upgradesInPlace;
    private final boolean produceChangelog;
    private final BucketDeletionVectors deletionVectors;
    private final List<DataFileMeta> outside;

    private LookupCompactRewriter(BinaryRow partition, int bucket, MergeTreeReaders readers,
            KeyValueFileWriterFactory writers, FileIO fileIO, DataFilePathFactory pathFactory,
            Supplier<CollectingMerge> merges, Lookups lookups, int maxLevel, boolean upgradesInPlace,
            boolean produceChangelog, BucketDeletionVectors deletionVectors, List<DataFileMeta> outside) {
        this.partition = partition;
        this.bucket = bucket;
        this.readers = readers;
        this.writers = writers;
        this.fileIO = fileIO;
        this.pathFactory = pathFactory;
        this.merges = merges;
        this.lookups = lookups;
        this.maxLevel = maxLevel;
        this.upgradesInPlace = upgradesInPlace;
        this.produceChangelog = produceChangelog;
        this.deletionVectors = deletionVectors;
        this.outside = List.copyOf(outside);
    }

    /** How the rewriter of one bucket is set up; see {@link #build()}. */
    public static Builder builder(BinaryRow partition, int bucket, MergeTreeReaders readers,
            KeyValueFileWriterFactory writers, FileIO fileIO, DataFilePathFactory pathFactory) {
        return new Builder(partition, bucket, readers, writers, fileIO, pathFactory);
    }

    @Override
    public CompactRewriter forCompaction(List<DataFileMeta> outsideFiles) {
        return new LookupCompactRewriter(partition, bucket, readers, writers, fileIO, pathFactory, merges, lookups,
                maxLevel, upgradesInPlace, produceChangelog, deletionVectors, outsideFiles);
    }

    @Override
    public CompactResult rewrite(int outputLevel, boolean dropDelete, List<List<SortedRun>> sections) throws Exception {
        boolean looksUp = outputLevel > 0 && ChangelogSections.containsLevelZero(sections);
        return merge(outputLevel, dropDelete, sections, looksUp, true);
    }

    @Override
    public CompactResult upgrade(int outputLevel, DataFileMeta file) throws Exception {
        if (file.level() != 0) {
            return CompactRewriter.super.upgrade(outputLevel, file);
        }
        boolean rewrite = (outputLevel != maxLevel && !upgradesInPlace)
                || (deletionVectors != null && (file.deleteRowCount() == null || file.deleteRowCount() > 0));
        if (!rewrite && !produceChangelog && deletionVectors == null) {
            return CompactRewriter.super.upgrade(outputLevel, file);
        }
        return merge(outputLevel, false, List.of(List.of(SortedRun.of(file))), true, rewrite);
    }

    private CompactResult merge(int outputLevel, boolean dropDelete, List<List<SortedRun>> sections,
            boolean looksUp, boolean rewrite) throws Exception {
        CollectingMerge merge = merges.get();
        KeyLookup lookup = looksUp ? lookups.open(partition, bucket, above(outputLevel)) : KeyLookup.NONE;
        try {
            merge.lookingUpIn(lookup);
            DeletionMarks.Builder marks = deletionVectors == null ? null : new DeletionMarks.Builder();
            if (marks != null) {
                merge.markingDeletions(deletionVectors, marks);
            }
            CompactResult result = ChangelogSections.rewrite(readers, writers, partition, bucket, outputLevel,
                    sections, merge, rewrite, dropDelete, looksUp && produceChangelog);
            return marks == null ? result : result.withDeletions(marks.build());
        } finally {
            if (lookup instanceof AutoCloseable closeable) {
                closeable.close();
            }
        }
    }

    private List<DataFileMeta> above(int outputLevel) {
        List<DataFileMeta> files = new ArrayList<>();
        for (DataFileMeta f : outside) {
            if (f.level() > outputLevel) {
                files.add(f);
            }
        }
        return files;
    }

    @Override
    public void discardRewritten(List<DataFileMeta> written) {
        for (DataFileMeta f : written) {
            fileIO.deleteQuietly(pathFactory.toPath(f.fileName()));
        }
    }

    /** Sets up a {@link LookupCompactRewriter}. */
    public static final class Builder {
        private final BinaryRow partition;
        private final int bucket;
        private final MergeTreeReaders readers;
        private final KeyValueFileWriterFactory writers;
        private final FileIO fileIO;
        private final DataFilePathFactory pathFactory;
        private Supplier<CollectingMerge> merges;
        private Lookups lookups;
        private int maxLevel = -1;
        private boolean upgradesInPlace;
        private boolean produceChangelog;
        private BucketDeletionVectors deletionVectors;

        private Builder(BinaryRow partition, int bucket, MergeTreeReaders readers, KeyValueFileWriterFactory writers,
                FileIO fileIO, DataFilePathFactory pathFactory) {
            this.partition = partition;
            this.bucket = bucket;
            this.readers = readers;
            this.writers = writers;
            this.fileIO = fileIO;
            this.pathFactory = pathFactory;
        }

        /** Merges with {@code merges} (one per compaction call), see {@link LookupMerges}. */
        public Builder merges(LookupMerges merges) {
            this.merges = merges::create;
            return this;
        }

        public Builder lookups(Lookups lookups) {
            this.lookups = lookups;
            return this;
        }

        /** The bucket's last level ({@code num-levels} - 1): upgrades to it need no lookups. */
        public Builder maxLevel(int maxLevel) {
            this.maxLevel = maxLevel;
            return this;
        }

        /**
         * Whether a level-0 file's versions are already what a rewrite writes (deduplicate without
         * {@code sequence.field}), so an upgrade moves it unchanged.
         */
        public Builder upgradesInPlace(boolean upgradesInPlace) {
            this.upgradesInPlace = upgradesInPlace;
            return this;
        }

        /** Whether compactions write changelog files ({@code changelog-producer} = lookup). */
        public Builder produceChangelog(boolean produceChangelog) {
            this.produceChangelog = produceChangelog;
            return this;
        }

        /**
         * With {@code deletion-vectors.enabled}: the bucket's current vectors. Older versions found by
         * lookup are then marked deleted in the result, versions those vectors delete are not found,
         * and level-0 files that may hold retractions are rewritten rather than upgraded.
         */
        public Builder deletionVectors(BucketDeletionVectors deletionVectors) {
            this.deletionVectors = deletionVectors;
            return this;
        }

        public LookupCompactRewriter build() {
            if (merges == null || lookups == null || maxLevel < 1) {
                throw new IllegalStateException("Cannot build a lookup compaction rewriter: merges, lookups and a "
                        + "max level >= 1 are required");
            }
            return new LookupCompactRewriter(partition, bucket, readers, writers, fileIO, pathFactory, merges, lookups,
                    maxLevel, upgradesInPlace, produceChangelog, deletionVectors, List.of());
        }
    }
}
