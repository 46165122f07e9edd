package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.SortedRun;
import dev.streamhouse.storage.mergetree.io.KeyValueFileWriterFactory;
import dev.streamhouse.storage.mergetree.read.MergeTreeReaders;

import java.util.List;
import java.util.function.BiPredicate;

/**
 * Compacts a bucket of a {@code changelog-producer} = full-compaction table (Apache Paimon's rules):
 * a compaction to the last level (a full compaction, every {@code full-compaction.delta-commits}
 * commits) writes the changelog between the last level before and after it ({@link FullChangelogMerge});
 * a file it moves to the last level unchanged is read for its changelog (its keys are new there). Other
 * compactions are ordinary ({@link MergeTreeCompactRewriter}).
 */
public final class FullChangelogCompactRewriter implements CompactRewriter {
    private final BinaryRow partition;
    private final int bucket;
    private final MergeTreeReaders readers;
    private final KeyValueFileWriterFactory writers;
    private final MergeTreeCompactRewriter plain;
    private final MergeFunctionFactory engine;
    private final KeyValueLayout layout;
    private final int maxLevel;
    private final BiPredicate<InternalRow, InternalRow> sameValue;

    /**
     * @param sameValue whether a -U/+U pair of two value rows is left out
     *     ({@code changelog-producer.row-deduplicate}), or null to keep every pair
     */
    public FullChangelogCompactRewriter(BinaryRow partition, int bucket, MergeTreeReaders readers,
            KeyValueFileWriterFactory writers, FileIO fileIO, DataFilePathFactory pathFactory,
            MergeFunctionFactory engine, KeyValueLayout layout, int maxLevel,
            BiPredicate<InternalRow, InternalRow> sameValue) {
        this.partition = partition;
        this.bucket = bucket;
        this.readers = readers;
        this.writers = writers;
        this.plain = new MergeTreeCompactRewriter(partition, bucket, readers, writers, fileIO, pathFactory);
        this.engine = engine;
        this.layout = layout;
        this.maxLevel = maxLevel;
        this.sameValue = sameValue;
    }

    @Override
    public CompactResult rewrite(int outputLevel, boolean dropDelete, List<List<SortedRun>> sections) throws Exception {
        if (outputLevel != maxLevel) {
            return plain.rewrite(outputLevel, dropDelete, sections);
        }
        return ChangelogSections.rewrite(readers, writers, partition, bucket, outputLevel, sections, merge(), true,
                true, true);
    }

    @Override
    public CompactResult upgrade(int outputLevel, DataFileMeta file) throws Exception {
        if (outputLevel != maxLevel || file.level() == maxLevel) {
            return plain.upgrade(outputLevel, file);
        }
        return ChangelogSections.rewrite(readers, writers, partition, bucket, outputLevel,
                List.of(List.of(SortedRun.of(file))), merge(), false, false, true);
    }

    private FullChangelogMerge merge() {
        return new FullChangelogMerge(layout, engine.create(), maxLevel, sameValue);
    }

    @Override
    public void discardRewritten(List<DataFileMeta> written) throws Exception {
        plain.discardRewritten(written);
    }
}
