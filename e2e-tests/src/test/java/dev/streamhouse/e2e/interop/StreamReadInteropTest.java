package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CdcModel;
import dev.streamhouse.e2e.oracle.OurRows;
import dev.streamhouse.e2e.oracle.PaimonRows;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import org.apache.paimon.consumer.Consumer;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.table.source.TableScan;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our streaming-read metadata against Apache Paimon 1.3.1: {@code incremental-between} reads the same
 * rows, row kinds included, on both sides (for append tables and primary-key tables with and without
 * input changelog, over every range of tables with compactions and overwrites), and consumer files ({@code consumer/consumer-<id>}) written by
 * either side are honoured by the other.
 */
class StreamReadInteropTest extends InteropTestBase {
    private static final String DB = "sr";
    private static final TableSpec APPEND = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING")
            .withPartitionKeys("dt").withOption("bucket", "2").withOption("bucket-key", "id");
    private static final TableSpec PK = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING", "amount", "BIGINT")
            .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "2");

    private final CdcModel cdc = new CdcModel(17, 6);

    StreamReadInteropTest() {
        super(DB);
    }

    /** Complete CDC over 12 keys in 2 partitions. */
    private List<CanonicalRow> pkBatch(int size) {
        return cdc.batch(size);
    }

    private List<CanonicalRow> appendBatch(int size) {
        List<CanonicalRow> rows = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            long v = cdc.nextVersion();
            rows.add(CanonicalRow.of(cdc.randomPartition(), (int) v, "name-" + v));
        }
        return rows;
    }

    /** Overwrites partition dt=2026-12-01 through our API (an OVERWRITE snapshot). */
    private void ourOverwrite(String table, List<CanonicalRow> rows) throws Exception {
        FileStoreTable t = (FileStoreTable) ours.table(DB, table);
        List<CommitMessage> messages;
        try (TableWrite w = t.newOverwriteWrite()) {
            for (dev.streamhouse.storage.data.InternalRow r : OurRows.toOurs(rows, t.rowType())) {
                w.write(r);
            }
            messages = w.prepareCommit();
        }
        try (BatchTableCommit c = t.newBatchCommit()) {
            c.overwrite(Map.of("dt", "2026-12-01"), messages);
        }
        cdc.live().keySet().removeIf(k -> k.startsWith("2026-12-01/"));
        for (CanonicalRow r : rows) {
            cdc.live().put(r.get(0) + "/" + r.get(1), r);
        }
    }

    private List<CanonicalRow> ourIncremental(String table, String range, String mode) throws Exception {
        dev.streamhouse.storage.table.Table t = ours.table(DB, table).copy(Map.of("incremental-between", range,
                "incremental-between-scan-mode", mode));
        dev.streamhouse.storage.table.source.ReadBuilder rb = t.newReadBuilder();
        dev.streamhouse.storage.types.RowType type = rb.readType();
        List<CanonicalRow> out = new ArrayList<>();
        rb.newRead().createReader(rb.newScan().plan().splits()).forEachRemaining(r -> out.add(OurRows.toCanonical(r, type)));
        return out;
    }

    private List<CanonicalRow> paimonIncremental(String table, String range, String mode) throws Exception {
        Table t = paimon.table(DB, table).copy(Map.of("incremental-between", range,
                "incremental-between-scan-mode", mode));
        ReadBuilder rb = t.newReadBuilder();
        RowType type = rb.readType();
        List<CanonicalRow> out = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(r -> out.add(PaimonRows.toCanonical(r, type)));
        }
        return out;
    }

    /** Every range of the table, with row kinds: Paimon keeps -U/-D and does not merge. */
    private void assertSameIncrementalReads(String table, String... modes) throws Exception {
        long latest = paimon.latestSnapshotId(DB, table).orElseThrow();
        for (String mode : modes.length == 0 ? new String[] {"auto"} : modes) {
            int compared = 0;
            for (long start = 0; start < latest; start++) {
                for (long end = start + 1; end <= latest; end++) {
                    String range = start + "," + end;
                    List<CanonicalRow> theirs = paimonIncremental(table, range, mode);
                    Canon.assertSameRows("incremental-between '" + range + "' (" + mode + ") of " + table
                            + " (ours vs Paimon)", theirs, ourIncremental(table, range, mode));
                    compared += theirs.size();
                }
            }
            assertThat(compared).as("the ranges hold rows").isPositive();
        }
    }

    /**
     * Every pair of snapshots read as a diff ('incremental-between-scan-mode' = 'diff'), and as two tags of
     * them: the rows whose state changed between the two, as Paimon reads them.
     */
    private void assertSameDiffReads(String table) throws Exception {
        long latest = paimon.latestSnapshotId(DB, table).orElseThrow();
        dev.streamhouse.storage.maintenance.tag.TableTags tags = dev.streamhouse.storage.maintenance.tag.TableTags.of(ours.table(DB, table));
        for (long id = 1; id <= latest; id++) {
            tags.create("tag-" + id, id, null);
        }
        int compared = 0;
        for (long start = 1; start < latest; start++) {
            for (long end = start + 1; end <= latest; end++) {
                String range = start + "," + end;
                List<CanonicalRow> theirs = paimonIncremental(table, range, "diff");
                Canon.assertSameRows("diff '" + range + "' of " + table + " (ours vs Paimon)", theirs,
                        ourIncremental(table, range, "diff"));
                String tagRange = "tag-" + start + ",tag-" + end;
                Canon.assertSameRows("incremental-between '" + tagRange + "' of " + table + " (ours vs Paimon)",
                        paimonIncremental(table, tagRange, "auto"), ourIncremental(table, tagRange, "auto"));
                compared += theirs.size();
            }
        }
        assertThat(compared).as("the diffs hold rows").isPositive();
    }

    @Test
    void incrementalBetweenReadsTheSameRowsAsPaimonOnAnAppendTable() throws Exception {
        ours.createTable(DB, "a", APPEND);
        ours.write(DB, "a", appendBatch(10));
        ours.write(DB, "a", appendBatch(10));
        ours.compactAll(DB, "a", true);
        ourOverwrite("a", appendBatch(3).stream()
                .map(r -> CanonicalRow.of("2026-12-01", r.get(1), r.get(2))).toList());
        ours.write(DB, "a", appendBatch(10));
        paimon.write(DB, "a", appendBatch(10));
        ours.write(DB, "a", appendBatch(10));
        assertSameIncrementalReads("a");
        assertSameDiffReads("a");
    }

    @Test
    void incrementalBetweenReadsTheSameRowsAsPaimonOnAPrimaryKeyTable() throws Exception {
        ours.createTable(DB, "p", PK);
        for (int i = 0; i < 3; i++) {
            ours.write(DB, "p", pkBatch(12));
        }
        ours.compactAll(DB, "p", false);
        ours.write(DB, "p", pkBatch(12));
        paimon.write(DB, "p", pkBatch(12));
        ours.write(DB, "p", pkBatch(12));
        assertSameIncrementalReads("p");
        assertSameDiffReads("p");
    }

    @Test
    void incrementalBetweenReadsTheSameRowsAsPaimonOnAnInputChangelogTable() throws Exception {
        ours.createTable(DB, "c", PK.withOption("changelog-producer", "input"));
        for (int i = 0; i < 3; i++) {
            ours.write(DB, "c", pkBatch(12));
        }
        ours.compactAll(DB, "c", true);
        ours.write(DB, "c", pkBatch(12));
        paimon.write(DB, "c", pkBatch(12));
        ours.write(DB, "c", pkBatch(12));
        assertSameIncrementalReads("c", "auto", "delta", "changelog");
    }

    private List<CanonicalRow> ourBatch(String table, Map<String, String> options) throws Exception {
        dev.streamhouse.storage.table.source.ReadBuilder rb = ours.table(DB, table).copy(options).newReadBuilder();
        dev.streamhouse.storage.types.RowType type = rb.readType();
        List<CanonicalRow> out = new ArrayList<>();
        rb.newRead().createReader(rb.newScan().plan().splits()).forEachRemaining(r -> out.add(OurRows.toCanonical(r, type)));
        return out;
    }

    private List<CanonicalRow> paimonBatch(String table, Map<String, String> options) throws Exception {
        ReadBuilder rb = paimon.table(DB, table).copy(options).newReadBuilder();
        RowType type = rb.readType();
        List<CanonicalRow> out = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(r -> out.add(PaimonRows.toCanonical(r, type)));
        }
        return out;
    }

    /**
     * Scan mode 'incremental' (the seeds' {@code OPTIONS('scan.mode' = 'incremental', 'incremental-between'
     * = 'a,b')}) reads what Paimon reads, and both refuse it without exactly one range option and in
     * streaming mode.
     */
    @Test
    void scanModeIncrementalReadsTheSameRowsAsPaimonAndIsRefusedWherePaimonRefusesIt() throws Exception {
        ours.createTable(DB, "i", PK);
        for (int i = 0; i < 3; i++) {
            ours.write(DB, "i", pkBatch(12));
        }
        paimon.write(DB, "i", pkBatch(12));
        long latest = paimon.latestSnapshotId(DB, "i").orElseThrow();
        int compared = 0;
        for (long start = 0; start < latest; start++) {
            for (long end = start + 1; end <= latest; end++) {
                Map<String, String> options = Map.of("scan.mode", "incremental", "incremental-between", start + "," + end);
                List<CanonicalRow> theirs = paimonBatch("i", options);
                Canon.assertSameRows("scan.mode incremental " + options + " (ours vs Paimon)", theirs,
                        ourBatch("i", options));
                compared += theirs.size();
            }
        }
        assertThat(compared).as("the ranges hold rows").isPositive();
        long t1 = paimon.table(DB, "i").snapshot(1).timeMillis();
        long t3 = paimon.table(DB, "i").snapshot(3).timeMillis();
        Map<String, String> byTime = Map.of("scan.mode", "incremental", "incremental-between-timestamp", t1 + "," + t3);
        Canon.assertSameRows("scan.mode incremental by time (ours vs Paimon)", paimonBatch("i", byTime),
                ourBatch("i", byTime));

        for (Map<String, String> refused : List.of(Map.of("scan.mode", "incremental"),
                Map.of("scan.mode", "incremental", "incremental-between", "1,2", "incremental-between-timestamp", "1,2"),
                Map.of("scan.mode", "incremental", "incremental-between", "1,2", "scan.snapshot-id", "1"))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> paimonBatch("i", refused))
                    .as("Paimon refuses " + refused).isInstanceOf(IllegalArgumentException.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ourBatch("i", refused))
                    .as("we refuse " + refused).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'scan.mode' = 'incremental'");
        }
        Map<String, String> streaming = Map.of("scan.mode", "incremental", "incremental-between", "1,2");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> paimon.table(DB, "i").copy(streaming).newReadBuilder().newStreamScan().plan())
                .as("Paimon refuses incremental streaming reads").hasMessageContaining("streaming mode");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> ours.table(DB, "i").copy(streaming).newReadBuilder().newStreamScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'scan.mode' = 'incremental'").hasMessageContaining("batch");
    }

    @Test
    void consumerFilesAreSharedWithPaimon() throws Exception {
        ours.createTable(DB, "t", APPEND);
        List<List<CanonicalRow>> snapshots = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            List<CanonicalRow> batch = appendBatch(5);
            ours.write(DB, "t", batch);
            snapshots.add(batch);
        }
        FileStoreTable ourTable = (FileStoreTable) ours.table(DB, "t");
        ConsumerManager ourConsumers = new ConsumerManager(LocalFileIO.INSTANCE, ourTable.location());
        org.apache.paimon.table.FileStoreTable theirTable = (org.apache.paimon.table.FileStoreTable) paimon.table(DB, "t");
        org.apache.paimon.consumer.ConsumerManager theirConsumers =
                new org.apache.paimon.consumer.ConsumerManager(theirTable.fileIO(), theirTable.location());

        // Ours → Paimon: its ConsumerManager reads it, and its streaming read resumes there.
        ourConsumers.commit("ours", 3);
        assertThat(theirConsumers.consumer("ours")).map(Consumer::nextSnapshot).contains(3L);
        List<CanonicalRow> expected = new ArrayList<>(snapshots.get(2));
        expected.addAll(snapshots.get(3));
        Canon.assertSameRows("Paimon's streaming read resuming our consumer", expected,
                paimon.streamUntilLatest(DB, "t", Map.of("consumer-id", "ours", "consumer.expiration-time", "1 h")));

        // Paimon → ours: same bytes for the same value, and our reader and streaming read honour it.
        theirConsumers.resetConsumer("theirs", new Consumer(4));
        Path theirFile = paimon.tablePath(DB, "t").resolve("consumer").resolve("consumer-theirs");
        ourConsumers.commit("same", 4);
        assertThat(Files.readString(theirFile, StandardCharsets.UTF_8))
                .isEqualTo(Files.readString(paimon.tablePath(DB, "t").resolve("consumer").resolve("consumer-same"),
                        StandardCharsets.UTF_8));
        assertThat(ourConsumers.nextSnapshot("theirs")).contains(4L);
        assertThat(ourConsumers.list()).containsEntry("theirs", 4L).containsEntry("ours", 3L);
        assertThat(theirConsumers.consumers()).containsEntry("same", 4L);

        dev.streamhouse.storage.table.Table withConsumer = ourTable.copy(Map.of("consumer-id", "theirs"));
        dev.streamhouse.storage.table.source.ReadBuilder rb = withConsumer.newReadBuilder();
        dev.streamhouse.storage.table.source.StreamTableScan scan = rb.newStreamScan();
        dev.streamhouse.storage.table.source.TableScan.Plan plan = scan.plan();
        assertThat(plan.snapshotId()).isEqualTo(4);
        List<CanonicalRow> read = new ArrayList<>();
        dev.streamhouse.storage.types.RowType type = rb.readType();
        rb.newRead().createReader(plan.splits()).forEachRemaining(r -> read.add(OurRows.toCanonical(r, type)));
        Canon.assertSameRows("our streaming read resuming Paimon's consumer", snapshots.get(3), read);
    }
}
