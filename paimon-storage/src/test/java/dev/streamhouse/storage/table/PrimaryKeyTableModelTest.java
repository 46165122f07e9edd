package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thousands of random upserts and deletes over a small key space, with small buffers and small
 * files so flushes, spills, levels and compactions really happen; after every commit the table equals
 * an in-memory model. The seed is in the test name and every failure message.
 */
class PrimaryKeyTableModelTest {
    private static final List<String> PARTITIONS = List.of("p0", "p1");

    @TempDir
    java.nio.file.Path tmp;

    private static Schema schema(Random random) {
        return Schema.newBuilder()
                .column("pt", DataTypes.STRING())
                .column("k", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .column("s", DataTypes.STRING())
                .partitionKeys("pt")
                .primaryKey("pt", "k")
                .option("bucket", String.valueOf(1 + random.nextInt(3)))
                .option("write-buffer-size", random.nextBoolean() ? "128 kb" : "2 mb")
                .option("write-buffer-spillable", String.valueOf(random.nextBoolean()))
                .option("target-file-size", "32 kb")
                .option("num-sorted-run.compaction-trigger", String.valueOf(2 + random.nextInt(3)))
                .build();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1L, 2L, 3L, 4L, 5L, 42L, 20261129L})
    void tableAlwaysEqualsTheModel(long seed) throws Exception {
        Random random = new Random(seed);
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t" + seed).toString()),
                schema(random));
        Map<String, String> model = new TreeMap<>();
        TableCommit commit = table.newStreamCommit("model-test");
        TableWrite write = table.newWrite();
        int keySpace = 300 + random.nextInt(700);
        long version = 0;
        for (int checkpoint = 1; checkpoint <= 12; checkpoint++) {
            int ops = random.nextInt(4000);
            for (int i = 0; i < ops; i++) {
                String pt = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
                int k = random.nextInt(keySpace);
                String key = pt + "/" + k;
                int dice = random.nextInt(10);
                if (dice < 2) {
                    write.write(GenericRow.ofKind(RowKind.DELETE, BinaryString.fromString(pt), k, null, null));
                    model.remove(key);
                } else {
                    long v = ++version;
                    String s = random.nextInt(5) == 0 ? null : "s" + v + "-".repeat(random.nextInt(20));
                    RowKind kind = dice < 5 ? RowKind.INSERT : RowKind.UPDATE_AFTER;
                    write.write(GenericRow.ofKind(kind, BinaryString.fromString(pt), k, v, BinaryString.fromString(s)));
                    model.put(key, v + "," + s);
                }
            }
            if (random.nextInt(4) == 0) {
                write.compact(partition(random), random.nextInt(table.schema().numBuckets()), random.nextBoolean());
            }
            commit.commit(checkpoint, write.prepareCommit());
            assertThat(read(table)).as("seed %s, after commit %s", seed, checkpoint).isEqualTo(model);
        }
        write.close();
        // A fresh writer continues the same buckets (sequence numbers, levels) after a "restart".
        TableWrite restarted = table.newWrite();
        restarted.write(GenericRow.ofKind(RowKind.INSERT, BinaryString.fromString("p0"), 0, -1L, null));
        model.put("p0/0", "-1,null");
        commit.commit(100, restarted.prepareCommit());
        restarted.close();
        assertThat(read(table)).as("seed %s, after restart", seed).isEqualTo(model);
        // The run really exercised the LSM tree: compaction moved data above level 0.
        assertThat(table.newReadBuilder().newScan().plan().splits().stream()
                .flatMap(s -> s.files().stream()).anyMatch(f -> f.level() > 0)).as("files above level 0").isTrue();
    }

    private static BinaryRow partition(Random random) {
        return new BinaryRowConverter(List.of(DataTypes.STRING()))
                .toBinaryRow(new Object[] {BinaryString.fromString(PARTITIONS.get(random.nextInt(PARTITIONS.size())))});
    }

    private static Map<String, String> read(FileStoreTable table) throws Exception {
        ReadBuilder rb = table.newReadBuilder();
        RowType type = rb.readType();
        List<DataSplit> splits = rb.newScan().plan().splits();
        Map<String, String> out = new TreeMap<>();
        List<String> duplicates = new ArrayList<>();
        rb.newRead().createReader(splits).forEachRemaining(r -> {
            InternalRow row = InternalRowUtils.copyToGeneric(r, type);
            String key = row.stringAt(0) + "/" + row.intAt(1);
            String value = row.longAt(2) + "," + (row.isNullAt(3) ? null : row.stringAt(3).toString());
            if (out.put(key, value) != null) {
                duplicates.add(key);
            }
        });
        assertThat(duplicates).as("keys returned twice").isEmpty();
        return out;
    }
}
