package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A write continued by a successor under a newer schema ({@link WriteContext#succeeding}) while its
 * last files are not committed or not even handed out yet: the successor continues the buckets (files,
 * sequence numbers, deletion vectors, dynamic bucket assignments, files not handed out), so the table
 * reads exactly what was written, in order, once everything is committed.
 */
class WriteHandOverTest {
    @TempDir
    java.nio.file.Path tmp;

    private Path root;

    private FileStoreTable create(String... options) throws Exception {
        root = new Path(tmp.resolve("t").toString());
        Schema.Builder b = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("v", DataTypes.INT())
                .primaryKey("id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, root, b.build());
    }

    private FileStoreTable addColumn(String name) throws Exception {
        new SchemaManager(LocalFileIO.INSTANCE, root, "default.test")
                .commitChanges(List.of(SchemaChange.addColumn(name, DataTypes.INT())));
        return FileStoreTable.load(LocalFileIO.INSTANCE, root, "default.test");
    }

    /** The first case of the model test, spelled out: an update after the hand-over wins. */
    @Test
    void rowsWrittenAfterTheHandOverAreNewerThanTheHandedOverOnes() throws Exception {
        FileStoreTable v0 = create("bucket", "2");
        TableWrite first = v0.newWrite();
        for (int id = 0; id < 20; id++) {
            first.write(GenericRow.of(id, 0));
        }
        v0.newStreamCommit("job").commit(1, first.prepareCommit());
        for (int id = 0; id < 20; id++) {
            first.write(GenericRow.of(id, 1));
        }
        FileStoreTable v1 = addColumn("c");
        try (TableWrite second = v1.newWrite(WriteContext.single().succeeding(first))) {
            for (int id = 0; id < 10; id++) {
                second.write(GenericRow.of(id, 2, 7));
            }
            v1.newStreamCommit("job").commit(2, second.prepareCommit());
        }
        List<String> expected = new ArrayList<>();
        for (int id = 0; id < 20; id++) {
            expected.add(id < 10 ? "+I(" + id + ", 2, 7)" : "+I(" + id + ", 1, null)");
        }
        assertThat(sorted(TestTables.readAll(v1))).isEqualTo(sorted(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bucket=2", "bucket=2,num-sorted-run.compaction-trigger=2",
            "bucket=-1,dynamic-bucket.target-row-num=15", "bucket=1,deletion-vectors.enabled=true",
            "bucket=2,changelog-producer=lookup"})
    void randomHistoriesWithHandOversReadAsWritten(String options) throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            java.nio.file.Path dir = tmp.resolve("seed" + seed);
            tmp = dir;
            run(options.split("[,=]"), new Random(seed));
            tmp = dir.getParent();
        }
    }

    private void run(String[] options, Random random) throws Exception {
        FileStoreTable table = create(options);
        int columns = 2;
        Map<Integer, Object[]> model = new TreeMap<>();
        TableWrite write = table.newWrite();
        // Checkpoints whose messages were handed out but are committed later, each with its own identifier.
        List<List<CommitMessage>> handedOut = new ArrayList<>();
        long identifier = 0;
        int handOvers = 0;
        for (int round = 0; round < 30; round++) {
            for (int i = 0; i < 25; i++) {
                int id = random.nextInt(60);
                if (random.nextInt(6) == 0) {
                    Object[] values = new Object[columns];
                    values[0] = id;
                    GenericRow row = GenericRow.of(values);
                    row.setRowKind(RowKind.DELETE);
                    write.write(row);
                    model.remove(id);
                } else {
                    Object[] values = new Object[columns];
                    values[0] = id;
                    for (int c = 1; c < columns; c++) {
                        values[c] = random.nextInt(1000);
                    }
                    write.write(GenericRow.of(values));
                    model.put(id, values);
                }
            }
            int step = random.nextInt(4);
            if (step == 0) {
                // Handed out, committed later (a checkpoint whose commit is still to come).
                handedOut.add(write.prepareCommit());
            } else if (step == 1) {
                table = addColumn("c" + round);
                columns++;
                for (Object[] values : model.values()) {
                    model.put((Integer) values[0], Arrays.copyOf(values, columns));
                }
                write = table.newWrite(WriteContext.single().succeeding(write));
                handOvers++;
            } else {
                for (List<CommitMessage> messages : handedOut) {
                    table.newStreamCommit("job").commit(++identifier, messages);
                }
                handedOut.clear();
                table.newStreamCommit("job").commit(++identifier, write.prepareCommit());
                assertThat(sorted(TestTables.readAll(table))).as("round %d", round).isEqualTo(expected(model));
            }
        }
        for (List<CommitMessage> messages : handedOut) {
            table.newStreamCommit("job").commit(++identifier, messages);
        }
        table.newStreamCommit("job").commit(++identifier, write.prepareCommit());
        write.close();
        assertThat(sorted(TestTables.readAll(table))).isEqualTo(expected(model));
        assertThat(handOvers).isGreaterThan(0);
    }

    @Test
    void aSuccessorWithAnotherBucketCountIsRefused() throws Exception {
        FileStoreTable v0 = create("bucket", "2");
        TableWrite first = v0.newWrite();
        first.write(GenericRow.of(1, 1));
        FileStoreTable other = v0.copy(Map.of("bucket", "3"));
        assertThatThrownBy(() -> other.newWrite(WriteContext.single().succeeding(first)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bucket count");
        // The refused hand-over left the first write as it was.
        first.write(GenericRow.of(2, 2));
        v0.newStreamCommit("job").commit(1, first.prepareCommit());
        first.close();
        assertThat(TestTables.readAll(v0)).containsExactlyInAnyOrder("+I(1, 1)", "+I(2, 2)");
        TableWrite second = v0.newWrite();
        second.write(GenericRow.of(3, 3));
        try (TableWrite third = v0.newWrite(WriteContext.single().succeeding(second))) {
            assertThatThrownBy(() -> second.write(GenericRow.of(4, 4))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("handed over");
            v0.newStreamCommit("job").commit(2, third.prepareCommit());
        }
        assertThat(TestTables.readAll(v0)).containsExactlyInAnyOrder("+I(1, 1)", "+I(2, 2)", "+I(3, 3)");
    }

    private static List<String> expected(Map<Integer, Object[]> model) {
        List<String> out = new ArrayList<>();
        for (Object[] values : model.values()) {
            out.add(TestTables.show(List.of(GenericRow.of(values))).get(0));
        }
        return sorted(out);
    }

    private static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        out.sort(null);
        return out;
    }
}
