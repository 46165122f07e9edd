package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.BinaryRow;
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

/**
 * The file work of a compaction that writes changelog: merge-reads sections with a
 * {@link CollectingMerge}, writes the merged versions to data files on the output level (or, for an
 * upgrade, moves the input files there unchanged) and the merge's changelog to changelog files on that
 * level, in key order. On failure both writers are aborted (their files deleted); inputs are untouched.
 */
final class ChangelogSections {
    private ChangelogSections() {}

    /**
     * @param rewrite whether the merged versions are written to new files; false moves the inputs
     *     (every version of theirs is already what a rewrite would write)
     * @param dropDelete whether merged retractions are left out of the data files
     * @param changelog whether keys record and write their changelog
     */
    static CompactResult rewrite(MergeTreeReaders readers, KeyValueFileWriterFactory writers, BinaryRow partition,
            int bucket, int outputLevel, List<List<SortedRun>> sections, CollectingMerge merge, boolean rewrite,
            boolean dropDelete, boolean changelog) throws Exception {
        List<DataFileMeta> before = new ArrayList<>();
        for (List<SortedRun> section : sections) {
            for (SortedRun run : section) {
                before.addAll(run.files());
            }
        }
        RollingKeyValueFileWriter data = rewrite ? writers.newRollingWriter(outputLevel, FileSource.COMPACT) : null;
        RollingKeyValueFileWriter changes = changelog ? writers.newRollingChangelogWriter(outputLevel) : null;
        try {
            merge.changelogOn(changelog);
            for (List<SortedRun> section : sections) {
                try (RecordReader<KeyValue> reader = readers.readSection(partition, bucket, section, merge)) {
                    RecordIterator<KeyValue> batch;
                    while ((batch = reader.readBatch()) != null) {
                        KeyValue kv;
                        while ((kv = batch.next()) != null) {
                            if (data != null && !(dropDelete && kv.isRetract())) {
                                data.write(kv);
                            }
                            writeChangelog(merge, changes);
                        }
                        batch.releaseBatch();
                        if (Thread.currentThread().isInterrupted()) {
                            throw new InterruptedException("Compaction of bucket " + bucket + " was cancelled");
                        }
                    }
                }
                writeChangelog(merge, changes);
            }
            List<DataFileMeta> after = new ArrayList<>();
            if (data != null) {
                after.addAll(data.close());
            } else {
                for (DataFileMeta f : before) {
                    after.add(f.upgrade(outputLevel));
                }
            }
            List<DataFileMeta> changelogFiles = changes == null ? List.of() : changes.close();
            return new CompactResult(before, after, changelogFiles);
        } catch (Exception | Error e) {
            if (data != null) {
                data.abort();
            }
            if (changes != null) {
                changes.abort();
            }
            throw e;
        }
    }

    private static void writeChangelog(CollectingMerge merge, RollingKeyValueFileWriter changes) throws IOException {
        for (KeyValue kv : merge.drainChangelog()) {
            if (changes != null) {
                changes.write(kv);
            }
        }
    }

    /** Whether a file of {@code sections} is on level 0. */
    static boolean containsLevelZero(List<List<SortedRun>> sections) {
        for (List<SortedRun> section : sections) {
            for (SortedRun run : section) {
                for (DataFileMeta f : run.files()) {
                    if (f.level() == 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
