package dev.streamhouse.flink.sink.testutils;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Tables of the sink tests: {@code (id INT NOT NULL, v BIGINT, dt STRING)}, partitioned by {@code dt}
 * unless unpartitioned, optionally with primary key {@code (id, dt)} (or {@code (id)}), plus the
 * matching Flink row type and helpers to write messages and inspect snapshots and files.
 */
public final class SinkTables {
    private SinkTables() {}

    public static final RowType FLINK_TYPE = RowType.of(new org.apache.flink.table.types.logical.LogicalType[] {
            new IntType(false), new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "v", "dt"});

    public static final InternalTypeInfo<RowData> TYPE_INFO = InternalTypeInfo.of(FLINK_TYPE);

    public static FileStoreTable append(java.nio.file.Path dir, String... options) throws IOException {
        return create(dir, false, true, options);
    }

    public static FileStoreTable primaryKey(java.nio.file.Path dir, String... options) throws IOException {
        return create(dir, true, true, options);
    }

    public static FileStoreTable create(java.nio.file.Path dir, boolean primaryKey, boolean partitioned,
            String... options) throws IOException {
        return create(LocalFileIO.INSTANCE, new Path(dir.toString()), primaryKey, partitioned, options);
    }

    /** The test table at {@code root} of any file system (e.g. an {@code s3://} location). */
    public static FileStoreTable create(dev.streamhouse.storage.fs.FileIO fileIO, Path root, boolean primaryKey,
            boolean partitioned, String... options) throws IOException {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING());
        if (partitioned) {
            b.partitionKeys("dt");
        }
        if (primaryKey) {
            if (partitioned) {
                b.primaryKey("id", "dt");
            } else {
                b.primaryKey("id");
            }
        }
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(fileIO, root, b.build());
    }

    public static GenericRowData flinkRow(org.apache.flink.types.RowKind kind, int id, long v, String dt) {
        return GenericRowData.ofKind(kind, id, v, StringData.fromString(dt));
    }

    public static GenericRowData flinkRow(int id, long v, String dt) {
        return flinkRow(org.apache.flink.types.RowKind.INSERT, id, v, dt);
    }

    public static InternalRow storageRow(int id, long v, String dt) {
        return GenericRow.of(id, v, BinaryString.fromString(dt));
    }

    /** Writes rows with a fresh single writer and returns its messages (files exist, not committed). */
    public static List<CommitMessage> messages(FileStoreTable table, InternalRow... rows) throws IOException {
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            return w.prepareCommit();
        }
    }

    /** All snapshots, oldest first. */
    public static List<Snapshot> snapshots(FileStoreTable table) {
        try {
            Long earliest = table.snapshotManager().earliestSnapshotId();
            Long latest = table.snapshotManager().latestSnapshotId();
            List<Snapshot> out = new ArrayList<>();
            if (earliest == null) {
                return out;
            }
            Iterator<Snapshot> it = table.snapshotManager().snapshotsAscending(earliest, latest);
            it.forEachRemaining(out::add);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Data files under the table's partition/bucket directories. */
    public static List<java.nio.file.Path> dataFiles(java.nio.file.Path tableDir) throws IOException {
        try (Stream<java.nio.file.Path> walk = Files.walk(tableDir)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> tableDir.relativize(p).toString().contains("bucket-"))
                    .toList();
        }
    }

    public static boolean exists(java.nio.file.Path tableDir, CommitMessage m) throws IOException {
        List<java.nio.file.Path> files = dataFiles(tableDir);
        return m.newFiles().stream().allMatch(f -> files.stream().anyMatch(p -> p.getFileName().toString()
                .equals(f.fileName())));
    }
}
