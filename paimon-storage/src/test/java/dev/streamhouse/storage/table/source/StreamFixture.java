package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Tables and helpers for streaming-read tests: an append table {@code (id INT, name STRING, dt STRING)}
 * and a primary-key table {@code (id INT NOT NULL, v BIGINT, dt STRING)} keyed by {@code (id, dt)},
 * both partitioned by {@code dt}; rows shown as {@code +I(1, 10, a)} with their kind.
 */
final class StreamFixture {
    private final java.nio.file.Path dir;
    private long identifier;
    private int tables;

    StreamFixture(java.nio.file.Path dir) {
        this.dir = dir;
    }

    FileStoreTable appendTable(String... options) throws IOException {
        return TestTables.create(LocalFileIO.INSTANCE, new Path(dir.resolve("append" + tables++).toString()),
                TestTables.simpleSchema(options));
    }

    FileStoreTable pkTable(String... options) throws IOException {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("id", "dt");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(dir.resolve("pk" + tables++).toString()), b.build());
    }

    static InternalRow pk(RowKind kind, int id, long v, String dt) {
        return GenericRow.ofKind(kind, id, v, BinaryString.fromString(dt));
    }

    static InternalRow pk(int id, long v, String dt) {
        return pk(RowKind.INSERT, id, v, dt);
    }

    /** Writes the rows and commits them as one snapshot (a streaming commit); returns its id. */
    long commit(FileStoreTable table, InternalRow... rows) throws Exception {
        return commit(table, List.of(rows));
    }

    long commit(FileStoreTable table, List<InternalRow> rows) throws Exception {
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            table.newStreamCommit("test").commit(++identifier, w.prepareCommit());
        }
        return latestId(table);
    }

    /** Compacts every bucket that has files (fully), as one COMPACT snapshot; returns its id. */
    long compactAll(FileStoreTable table) throws Exception {
        try (TableWrite w = table.newWrite()) {
            java.util.Set<List<Object>> done = new java.util.HashSet<>();
            for (DataSplit s : table.newReadBuilder().newScan().plan().splits()) {
                if (done.add(List.of(s.partition(), s.bucket()))) {
                    w.compact(s.partition(), s.bucket(), true);
                }
            }
            table.newStreamCommit("test").commit(++identifier, w.prepareCommit());
        }
        return latestId(table);
    }

    /** Overwrites the partition {@code dt} with the rows, as one OVERWRITE snapshot; returns its id. */
    long overwrite(FileStoreTable table, String dt, InternalRow... rows) throws Exception {
        List<CommitMessage> messages;
        try (TableWrite w = table.newOverwriteWrite()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            messages = w.prepareCommit();
        }
        try (BatchTableCommit c = table.newBatchCommit()) {
            c.overwrite(Map.of("dt", dt), messages);
        }
        return latestId(table);
    }

    static long latestId(FileStoreTable table) throws IOException {
        return table.snapshotManager().latestSnapshotId();
    }

    /** Simulates snapshot expiration (docs/format.md §4.4): deletes snapshots below {@code newEarliest}, moves EARLIEST. */
    static void expireBefore(FileStoreTable table, long newEarliest) throws IOException {
        for (long id = 1; id < newEarliest; id++) {
            Files.deleteIfExists(java.nio.file.Path.of(table.snapshotManager().snapshotPath(id).toString()));
        }
        table.snapshotManager().commitEarliestHint(newEarliest);
    }

    /** The rows of the splits in read order, each with its kind, e.g. {@code -D(2, 20, a)}. */
    static List<String> read(ReadBuilder rb, List<DataSplit> splits) throws IOException {
        return read(rb, rb.newRead().executeFilter(), splits);
    }

    static List<String> read(ReadBuilder rb, TableRead read, List<DataSplit> splits) throws IOException {
        RowType type = rb.readType();
        List<String> out = new ArrayList<>();
        read.createReader(splits).forEachRemaining(r -> out.add(InternalRowUtils.copyToGeneric(r, type).toString()));
        return out;
    }

    static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        out.sort(null);
        return out;
    }

    /** One plan: its snapshot and rows (in read order). */
    record Planned(Long snapshotId, List<DataSplit> splits, List<String> rows) {}

    static Planned plan(StreamTableScan scan, ReadBuilder rb) throws IOException {
        TableScan.Plan p = scan.plan();
        return new Planned(p.snapshotId(), p.splits(), read(rb, p.splits()));
    }

    /** Plans until a plan finds no next snapshot; returns the plans that consumed a snapshot. */
    static List<Planned> drain(StreamTableScan scan, ReadBuilder rb) throws IOException {
        List<Planned> out = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Planned p = plan(scan, rb);
            if (p.snapshotId() == null) {
                return out;
            }
            out.add(p);
        }
        throw new AssertionError("the stream scan never ran out of snapshots");
    }

    static List<String> rows(List<Planned> plans) {
        List<String> out = new ArrayList<>();
        plans.forEach(p -> out.addAll(p.rows()));
        return out;
    }

    static BinaryRow partitionOf(DataSplit s) {
        return s.partition();
    }
}
