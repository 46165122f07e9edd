package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Cleans up after a compaction that ran elsewhere (a Flink job) and failed before its commit: its
 * writers named their files with a prefix of their own ({@link #optionsFor}), so the files are found
 * by name in the buckets it compacted, and deleted unless the latest snapshot references them. A
 * concurrent writer's files never carry that prefix, so they are never touched.
 *
 * <p>Errors: {@link IOException} if a bucket directory cannot be listed or the snapshot read;
 * individual deletions are best effort.
 */
public final class UncommittedCompactionFiles {
    private UncommittedCompactionFiles() {}

    /** Dynamic options that make a compaction's new data and changelog files start with {@code tag}. */
    public static Map<String, String> optionsFor(String tag) {
        if (!tag.matches("[A-Za-z0-9]+")) {
            throw new IllegalArgumentException("A compaction file tag must be letters and digits: '" + tag + "'");
        }
        return Map.of(FileFormatOptions.DATA_FILE_PREFIX.key(), prefix("data-", tag),
                FileFormatOptions.CHANGELOG_FILE_PREFIX.key(), prefix("changelog-", tag));
    }

    private static String prefix(String kind, String tag) {
        return kind + tag + "-";
    }

    /**
     * Deletes the files tagged {@code tag} in {@code buckets} that the latest snapshot does not hold.
     *
     * @return how many files were deleted
     */
    public static int delete(Table anyTable, Collection<CompactionBuckets.Bucket> buckets, String tag)
            throws IOException {
        FileStoreTable table = CompactionBuckets.fileStoreTable(anyTable, "clean up after compacting");
        Set<String> referenced = new HashSet<>();
        Optional<Snapshot> latest = table.snapshotManager().latestSnapshot();
        if (latest.isPresent()) {
            Set<BinaryRow> partitions = new HashSet<>();
            for (CompactionBuckets.Bucket pb : buckets) {
                partitions.add(pb.partition());
            }
            for (ManifestEntry e : table.snapshotEntries().liveEntries(latest.get(), partitions)) {
                referenced.add(e.file().fileName());
            }
        }
        int deleted = 0;
        String data = prefix("data-", tag);
        String changelog = prefix("changelog-", tag);
        for (CompactionBuckets.Bucket pb : buckets) {
            Path dir = table.paths().bucketDir(pb.partition(), pb.bucket());
            if (!table.fileIO().exists(dir)) {
                continue;
            }
            for (FileStatus f : table.fileIO().list(dir)) {
                String name = f.path().name();
                if (!f.isDirectory() && (name.startsWith(data) || name.startsWith(changelog))
                        && !referenced.contains(name)) {
                    table.fileIO().deleteQuietly(f.path());
                    deleted++;
                }
            }
        }
        return deleted;
    }
}
