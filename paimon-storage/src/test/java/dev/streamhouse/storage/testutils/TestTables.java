package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Small tables for storage tests: an append table {@code (id INT, name STRING, dt STRING)} partitioned
 * by {@code dt}, written and read through the public table API, with rows shown as strings.
 */
public final class TestTables {
    private TestTables() {}

    public static Schema simpleSchema(String... options) {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .column("dt", DataTypes.STRING())
                .partitionKeys("dt");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return b.build();
    }

    /** Creates a table at {@code root} (through the given FileIO) and loads it. */
    public static FileStoreTable create(FileIO fileIO, Path root, Schema schema) throws IOException {
        new SchemaManager(fileIO, root).createTable(schema);
        return FileStoreTable.load(fileIO, root, "default.test");
    }

    public static GenericRow row(int id, String name, String dt) {
        return GenericRow.of(id, BinaryString.fromString(name), BinaryString.fromString(dt));
    }

    /** {@code count} rows with ids from {@code fromId}, spread over partitions d0..d(partitions-1). */
    public static List<InternalRow> rows(int fromId, int count, int partitions) {
        List<InternalRow> out = new ArrayList<>();
        for (int id = fromId; id < fromId + count; id++) {
            out.add(row(id, "name-" + id, "d" + (id % partitions)));
        }
        return out;
    }

    /** Writes rows and commits them as one batch commit. */
    public static void write(Table table, List<InternalRow> rows) throws Exception {
        try (TableWrite w = table.newWrite(); BatchTableCommit c = table.newBatchCommit()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            c.commit(w.prepareCommit());
        }
    }

    /** All rows of the latest snapshot as strings, sorted. */
    public static List<String> readAll(Table table) throws IOException {
        return read(table.newReadBuilder());
    }

    public static List<String> read(ReadBuilder rb) throws IOException {
        RowType type = rb.readType();
        List<String> out = new ArrayList<>();
        rb.newRead().executeFilter().createReader(rb.newScan().plan().splits())
                .forEachRemaining(r -> out.add(InternalRowUtils.copyToGeneric(r, type).toString()));
        out.sort(null);
        return out;
    }

    /** The rows as {@link #readAll} would show them. */
    public static List<String> show(List<InternalRow> rows) {
        return rows.stream().map(Object::toString).sorted().collect(Collectors.toList());
    }
}
