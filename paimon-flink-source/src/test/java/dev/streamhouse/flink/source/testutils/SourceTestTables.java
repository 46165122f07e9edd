package dev.streamhouse.flink.source.testutils;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;

import java.util.List;

/** Tables for source tests, written through the storage Java API. */
public final class SourceTestTables {
    private SourceTestTables() {}

    /**
     * The storage tests' append table {@code (id INT, name STRING, dt STRING)} partitioned by {@code dt},
     * with rows {@code 0..count-1} spread over {@code partitions} partitions d0, d1, ... (id % partitions).
     */
    public static FileStoreTable appendTable(java.nio.file.Path dir, int count, int partitions) throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(dir.resolve("append").toString()),
                TestTables.simpleSchema());
        TestTables.write(table, TestTables.rows(0, count, partitions));
        return table;
    }

    /** A primary-key table {@code (id INT, v BIGINT, s STRING)} keyed by id, with the given options. */
    public static FileStoreTable primaryKeyTable(java.nio.file.Path dir, String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.BIGINT())
                .column("s", DataTypes.STRING())
                .primaryKey("id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(dir.resolve("pk").toString()), b.build());
    }

    public static InternalRow pkRow(RowKind kind, int id, long v, String s) {
        return GenericRow.ofKind(kind, id, v, BinaryString.fromString(s));
    }

    /** Writes rows of any kind to a primary-key table as one streaming commit. */
    public static void writePk(FileStoreTable table, long commitIdentifier, List<InternalRow> rows) throws Exception {
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            table.newStreamCommit("source-test").commit(commitIdentifier, w.prepareCommit());
        }
    }
}
