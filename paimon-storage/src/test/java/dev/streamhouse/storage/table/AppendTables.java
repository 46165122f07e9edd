package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Append tables {@code (dt STRING, id INT, v BIGINT)} partitioned by {@code dt} for the compaction
 * tests, where {@code v} numbers the rows in write order, and what those tests check: rows per bucket
 * in order, contiguous sequence numbers, data files no snapshot references.
 */
final class AppendTables {
    private AppendTables() {}

    static FileStoreTable create(FileIO io, java.nio.file.Path dir, String bucket, String... options)
            throws IOException {
        Schema.Builder b = Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .partitionKeys("dt")
                .option("bucket", bucket);
        if (!bucket.equals("-1")) {
            b.option("bucket-key", "id");
        }
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(io, new Path(dir.toString()), b.build());
    }

    /** Row {@code v} of the sequence: partition a or b by parity, id {@code v % 7}. */
    static GenericRow row(long v) {
        return GenericRow.of(BinaryString.fromString(v % 2 == 0 ? "a" : "b"), (int) (v % 7), v);
    }

    /** The values of v in the table, sorted. */
    static List<Long> values(FileStoreTable table) throws IOException {
        List<Long> out = new ArrayList<>();
        for (List<Long> bucket : valuesByBucket(table).values()) {
            out.addAll(bucket);
        }
        out.sort(null);
        return out;
    }

    /** The values of v of each bucket ("partition/bucket") in read order. */
    static TreeMap<String, List<Long>> valuesByBucket(FileStoreTable table) throws IOException {
        TreeMap<String, List<Long>> out = new TreeMap<>();
        RowType type = table.rowType();
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            List<Long> values = out.computeIfAbsent(split.partition() + "/" + split.bucket(), k -> new ArrayList<>());
            table.newReadBuilder().newRead().createReader(split)
                    .forEachRemaining(r -> values.add(InternalRowUtils.copyToGeneric(r, type).longAt(2)));
        }
        return out;
    }

    /** Each bucket's rows come in write order, and its files' sequence numbers run from 0 without gap or overlap. */
    static void assertBucketsInOrder(FileStoreTable table) throws IOException {
        valuesByBucket(table).forEach((bucket, values) -> {
            List<Long> sorted = new ArrayList<>(values);
            sorted.sort(null);
            assertThat(values).as("rows of %s in write order", bucket).isEqualTo(sorted);
        });
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            List<DataFileMeta> files = new ArrayList<>(split.files());
            files.sort(Comparator.comparingLong(DataFileMeta::minSequenceNumber));
            long next = 0;
            for (DataFileMeta f : files) {
                assertThat(f.minSequenceNumber()).as("%s of %s/%s after sequence %s", f, split.partition(),
                        split.bucket(), next - 1).isEqualTo(next);
                assertThat(f.maxSequenceNumber() - f.minSequenceNumber() + 1).isEqualTo(f.rowCount());
                next = f.maxSequenceNumber() + 1;
            }
        }
    }

    /** Live data files per bucket ("partition/bucket"). */
    static TreeMap<String, Integer> filesByBucket(FileStoreTable table) throws IOException {
        TreeMap<String, Integer> out = new TreeMap<>();
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            out.merge(split.partition() + "/" + split.bucket(), split.files().size(), Integer::sum);
        }
        return out;
    }

    /** Data files in the table's directories that no snapshot references (no snapshot expired in these tests). */
    static List<String> strayDataFiles(FileStoreTable table, java.nio.file.Path dir) throws IOException {
        Set<String> referenced = new HashSet<>();
        Long earliest = table.snapshotManager().earliestSnapshotId();
        Long latest = table.snapshotManager().latestSnapshotId();
        if (earliest != null) {
            Iterator<Snapshot> it = table.snapshotManager().snapshotsAscending(earliest, latest);
            while (it.hasNext()) {
                for (ManifestEntry e : table.snapshotEntries().liveEntries(it.next(), (Set<
                        dev.streamhouse.storage.data.BinaryRow>) null)) {
                    referenced.add(e.file().fileName());
                }
            }
        }
        List<String> stray = new ArrayList<>();
        try (Stream<java.nio.file.Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("data-") && !referenced.contains(n)).forEach(stray::add);
        }
        return stray;
    }
}
