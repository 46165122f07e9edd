package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.ChangelogRecords;
import dev.streamhouse.storage.testutils.ChangelogRecords.Change;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code changelog-producer = input} (docs/format.md §10): every input record, unmerged, also lands in changelog
 * files of its bucket, referenced only from the APPEND snapshot's changelog manifest list; batch reads
 * still see the merged rows.
 */
class InputChangelogTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable create(String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("id", "dt")
                .option("changelog-producer", "input");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
    }

    private static InternalRow row(RowKind kind, int id, long v, String dt) {
        return GenericRow.ofKind(kind, id, v, BinaryString.fromString(dt));
    }

    private static String show(InternalRow r) {
        return r.rowKind().shortString() + "(" + r.intAt(0) + ", " + r.longAt(1) + ", " + r.stringAt(2) + ")";
    }

    private static List<CommitMessage> write(FileStoreTable table, List<InternalRow> rows) throws Exception {
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            return w.prepareCommit();
        }
    }

    /** The changelog as (partition/bucket-independent) strings, per key in sequence order. */
    private static Map<Integer, List<String>> changelogByKey(List<Change> changes) {
        Map<Integer, List<Change>> byKey = new TreeMap<>();
        for (Change c : changes) {
            byKey.computeIfAbsent(c.value().intAt(0), k -> new ArrayList<>()).add(c);
        }
        Map<Integer, List<String>> out = new TreeMap<>();
        byKey.forEach((k, list) -> {
            list.sort((a, b) -> Long.compare(a.sequenceNumber(), b.sequenceNumber()));
            out.put(k, list.stream().map(Change::show).toList());
        });
        return out;
    }

    private static Map<Integer, List<String>> inputByKey(List<InternalRow> rows) {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (InternalRow r : rows) {
            out.computeIfAbsent(r.intAt(0), k -> new ArrayList<>()).add(show(r));
        }
        return out;
    }

    @Test
    void everyInputRecordReachesTheChangelogAndReadsStayMerged() throws Exception {
        FileStoreTable table = create("bucket", "2");
        List<InternalRow> input = List.of(
                row(RowKind.INSERT, 1, 10, "a"), row(RowKind.INSERT, 2, 20, "a"), row(RowKind.INSERT, 3, 30, "b"),
                row(RowKind.UPDATE_BEFORE, 1, 10, "a"), row(RowKind.UPDATE_AFTER, 1, 11, "a"),
                row(RowKind.DELETE, 2, 20, "a"), row(RowKind.UPDATE_BEFORE, 1, 11, "a"),
                row(RowKind.UPDATE_AFTER, 1, 12, "a"));
        List<CommitMessage> messages = write(table, input);
        assertThat(messages).allSatisfy(m -> assertThat(m.dataIncrement().changelogFiles()).isNotEmpty());
        table.newStreamCommit("u").commit(1, messages);

        Snapshot s = table.latestSnapshot().orElseThrow();
        assertThat(s.commitKind()).isEqualTo(CommitKind.APPEND);
        assertThat(s.changelogManifestList()).isNotNull();
        assertThat(s.changelogRecordCount()).isEqualTo(input.size());
        assertThat(TestTables.readAll(table)).containsExactly("+I(3, 30, b)", "+U(1, 12, a)");

        List<Change> changes = ChangelogRecords.read(table);
        assertThat(changes).hasSize(input.size());
        assertThat(changelogByKey(changes)).isEqualTo(inputByKey(input));
        // Sequence numbers are those of the data files: the changelog of key 1 ends with the live version.
        long dataMax = table.newReadBuilder().newScan().plan().splits().stream().flatMap(sp -> sp.files().stream())
                .mapToLong(DataFileMeta::maxSequenceNumber).max().orElseThrow();
        assertThat(changes.stream().mapToLong(Change::sequenceNumber).max().orElseThrow()).isEqualTo(dataMax);

        for (ChangelogRecords.ChangelogFile f : ChangelogRecords.files(table)) {
            DataFileMeta file = f.entry().file();
            assertThat(file.fileName()).startsWith("changelog-").endsWith(".parquet");
            assertThat(file.level()).isZero();
            assertThat(file.fileSource()).isEqualTo(FileSource.APPEND);
            assertThat(Files.exists(java.nio.file.Path.of(table.paths()
                    .dataFile(f.entry().partition(), f.entry().bucket(), file.fileName()).toString())))
                    .as("in the bucket directory").isTrue();
        }
        // Within a file: non-decreasing keys, and a key's versions in sequence order.
        for (int i = 1; i < changes.size(); i++) {
            Change a = changes.get(i - 1);
            Change b = changes.get(i);
            if (a.file().fileName().equals(b.file().fileName())) {
                assertThat(a.value().intAt(0)).isLessThanOrEqualTo(b.value().intAt(0));
                if (a.value().intAt(0) == b.value().intAt(0)) {
                    assertThat(a.sequenceNumber()).isLessThan(b.sequenceNumber());
                }
            }
        }
        // Changelog files are not data files: the live files of the snapshot are only data-*.
        List<ManifestEntry> live = table.snapshotEntries().liveEntries(s, (java.util.Set<BinaryRow>) null);
        assertThat(live).allMatch(e -> e.file().fileName().startsWith("data-"));
    }

    @Test
    void compactionSnapshotsCarryNoChangelogAndNeverTouchChangelogFiles() throws Exception {
        FileStoreTable table = create("bucket", "1");
        TableCommit commit = table.newStreamCommit("u");
        commit.commit(1, write(table, List.of(row(RowKind.INSERT, 1, 1, "a"), row(RowKind.INSERT, 2, 2, "a"))));
        commit.commit(2, write(table, List.of(row(RowKind.DELETE, 1, 1, "a"), row(RowKind.INSERT, 3, 3, "a"))));
        List<ChangelogRecords.ChangelogFile> before = ChangelogRecords.files(table);
        try (TableWrite w = table.newWrite()) {
            w.compact(new BinaryRowConverter(List.of(DataTypes.STRING())).toBinaryRow(new Object[] {BinaryString.fromString("a")}), 0, true);
            List<CommitMessage> compacted = w.prepareCommit();
            assertThat(compacted).allSatisfy(m -> assertThat(m.dataIncrement().changelogFiles()).isEmpty());
            commit.commit(3, compacted);
        }
        Snapshot s = table.latestSnapshot().orElseThrow();
        assertThat(s.commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(s.changelogManifestList()).isNull();
        assertThat(s.changelogRecordCount()).isZero();
        assertThat(ChangelogRecords.files(table)).hasSameSizeAs(before);
        assertThat(ChangelogRecords.read(table)).extracting(Change::show)
                .containsExactly("+I(1, 1, a)", "+I(2, 2, a)", "-D(1, 1, a)", "+I(3, 3, a)");
        assertThat(TestTables.readAll(table)).containsExactly("+I(2, 2, a)", "+I(3, 3, a)");
    }

    @Test
    void spilledRecordsAndSmallBufferFlushesAllReachTheChangelog() throws Exception {
        // A tiny buffer: spills to disk and flushes several times per commit; files roll small.
        FileStoreTable table = create("bucket", "2", "write-buffer-size", "64 kb", "target-file-size", "16 kb",
                "num-sorted-run.compaction-trigger", "3");
        Random random = new Random(5);
        List<InternalRow> all = new ArrayList<>();
        Map<Integer, InternalRow> model = new HashMap<>();
        TableCommit commit = table.newStreamCommit("u");
        for (int c = 1; c <= 3; c++) {
            List<InternalRow> batch = new ArrayList<>();
            for (int i = 0; i < 6000; i++) {
                int id = random.nextInt(500);
                InternalRow old = model.get(id);
                if (old != null && random.nextInt(4) == 0) {
                    batch.add(row(RowKind.DELETE, id, old.longAt(1), "p"));
                    model.remove(id);
                } else if (old != null) {
                    batch.add(row(RowKind.UPDATE_BEFORE, id, old.longAt(1), "p"));
                    InternalRow next = row(RowKind.UPDATE_AFTER, id, c * 100_000L + i, "p");
                    batch.add(next);
                    model.put(id, next);
                } else {
                    InternalRow next = row(RowKind.INSERT, id, c * 100_000L + i, "p");
                    batch.add(next);
                    model.put(id, next);
                }
            }
            all.addAll(batch);
            commit.commit(c, write(table, batch));
        }
        List<Change> changes = ChangelogRecords.read(table);
        assertThat(changes).hasSize(all.size());
        assertThat(changelogByKey(changes)).isEqualTo(inputByKey(all));
        assertThat(ChangelogRecords.files(table).size()).as("several rolled changelog files").isGreaterThan(6);
        long total = 0;
        for (Snapshot s : snapshots(table)) {
            if (s.commitKind() == CommitKind.APPEND) {
                assertThat(s.changelogManifestList()).isNotNull();
                total += s.changelogRecordCount();
            } else {
                assertThat(s.changelogManifestList()).isNull();
            }
        }
        assertThat(total).isEqualTo(all.size());
        List<String> expected = model.values().stream().map(InputChangelogTest::show).sorted().toList();
        assertThat(TestTables.readAll(table)).isEqualTo(expected);
    }

    private static List<Snapshot> snapshots(FileStoreTable table) throws Exception {
        List<Snapshot> out = new ArrayList<>();
        table.snapshotManager().snapshotsAscending(table.snapshotManager().earliestSnapshotId(),
                table.snapshotManager().latestSnapshotId()).forEachRemaining(out::add);
        return out;
    }

    private static List<String> bucketFiles(FileStoreTable table) throws Exception {
        java.nio.file.Path root = java.nio.file.Path.of(table.location().toString());
        try (Stream<java.nio.file.Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).filter(p -> root.relativize(p).toString().contains("bucket-"))
                    .map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void closingWithoutCommitAndAbortDeleteChangelogFiles() throws Exception {
        FileStoreTable table = create("bucket", "1", "write-buffer-size", "64 kb", "target-file-size", "16 kb",
                "write-buffer-spillable", "false");
        try (TableWrite w = table.newWrite()) {
            for (int i = 0; i < 3000; i++) {
                w.write(row(RowKind.INSERT, i, i, "a"));
            }
            // Flushes already happened (small buffer): files exist before prepareCommit.
            assertThat(bucketFiles(table)).anyMatch(n -> n.startsWith("changelog-"));
        }
        assertThat(bucketFiles(table)).as("close without prepareCommit deletes everything").isEmpty();

        List<CommitMessage> messages = write(table, List.of(row(RowKind.INSERT, 1, 1, "a"), row(RowKind.DELETE, 1, 1, "a")));
        assertThat(bucketFiles(table)).anyMatch(n -> n.startsWith("changelog-")).anyMatch(n -> n.startsWith("data-"));
        table.newStreamCommit("u").abort(messages);
        assertThat(bucketFiles(table)).isEmpty();
    }

    @Test
    void ignoreDeleteDropsRetractionsFromTheChangelogToo() throws Exception {
        FileStoreTable table = create("bucket", "1", "ignore-delete", "true");
        table.newStreamCommit("u").commit(1, write(table, List.of(row(RowKind.INSERT, 1, 1, "a"),
                row(RowKind.UPDATE_BEFORE, 1, 1, "a"), row(RowKind.UPDATE_AFTER, 1, 2, "a"),
                row(RowKind.DELETE, 1, 2, "a"), row(RowKind.DELETE, 7, 7, "a"))));
        assertThat(ChangelogRecords.read(table)).extracting(Change::show).containsExactly("+I(1, 1, a)", "+U(1, 2, a)");
        assertThat(table.latestSnapshot().orElseThrow().changelogRecordCount()).isEqualTo(2);
        assertThat(TestTables.readAll(table)).containsExactly("+U(1, 2, a)");
    }

    @Test
    void withoutTheOptionNoChangelogIsWritten() throws Exception {
        FileStoreTable table = create("bucket", "1", "changelog-producer", "none");
        table.newStreamCommit("u").commit(1, write(table, List.of(row(RowKind.INSERT, 1, 1, "a"))));
        assertThat(table.latestSnapshot().orElseThrow().changelogManifestList()).isNull();
        assertThat(bucketFiles(table)).noneMatch(n -> n.startsWith("changelog-"));
    }

    @Test
    void otherProducersAreAcceptedAndUnknownOnesRefused() throws Exception {
        FileStoreTable created = create("bucket", "1");
        for (String producer : List.of("none", "lookup", "full-compaction")) {
            assertThat(created.copy(Map.of("changelog-producer", producer)).schema().tableOptions()
                    .get(dev.streamhouse.storage.options.ChangelogOptions.CHANGELOG_PRODUCER)).hasToString(producer);
        }
        assertThatThrownBy(() -> created.copy(Map.of("changelog-producer", "bogus")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("changelog-producer").hasMessageContaining("bogus");
    }
}
