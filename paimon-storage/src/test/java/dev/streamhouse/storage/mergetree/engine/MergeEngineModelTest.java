package dev.streamhouse.storage.mergetree.engine;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Per merge engine: random inserts, updates, deletes and retractions over a small key space, with
 * small buffers and files so flushes, spills, levels and compactions (also full ones) really happen;
 * after every commit the table equals an in-memory model of Apache Paimon 1.3's semantics for the
 * engine, written independently of the merge functions. The seed and engine are in the test name and
 * every failure message.
 *
 * <p>Columns: {@code pt} (partition), {@code k}, {@code a INT}, {@code b STRING}, {@code s INT},
 * {@code c BIGINT}; primary key (pt, k).
 */
class MergeEngineModelTest {
    private static final List<String> PARTITIONS = List.of("p0", "p1");

    @TempDir
    java.nio.file.Path tmp;

    /** The model of one engine configuration: the options it needs and what each write does. */
    private interface Model {
        String[] options();

        /** Applies a write; may skip it (return false) when the engine's semantics are out of the model's scope. */
        boolean apply(String key, RowKind kind, Integer a, String b, Integer s, Long c);

        /** The visible rows, "a,b,s,c" per key. */
        Map<String, String> visible();
    }

    /**
     * partial-update, no sequence groups, -D removes the row. No -U is written: a Flink sink drops them
     * for this engine. The first insert after a removal sets every column: Paimon's format cannot say
     * "removed, then these columns" in one stored row, so when a removal and the next insert are merged
     * without the older versions (in one write buffer, or in a compaction above the oldest level), a
     * later merge fills the new row's NULL columns from before the removal. Apache Paimon 1.3 behaves
     * so too; docs/merge-engines.md says it.
     */
    private static final class PartialUpdateRemoveOnDelete implements Model {
        private final Map<String, Object[]> rows = new TreeMap<>();

        @Override
        public String[] options() {
            return new String[] {"merge-engine", "partial-update", "partial-update.remove-record-on-delete", "true"};
        }

        @Override
        public boolean apply(String key, RowKind kind, Integer a, String b, Integer s, Long c) {
            if (kind == RowKind.UPDATE_BEFORE) {
                return false;
            }
            if (kind == RowKind.DELETE) {
                rows.remove(key);
            } else {
                if (!rows.containsKey(key) && (a == null || b == null || s == null || c == null)) {
                    return false;
                }
                Object[] row = rows.computeIfAbsent(key, x -> new Object[4]);
                Object[] in = {a, b, s, c};
                for (int i = 0; i < 4; i++) {
                    if (in[i] != null) {
                        row[i] = in[i];
                    }
                }
            }
            return true;
        }

        @Override
        public Map<String, String> visible() {
            return render(rows);
        }
    }

    /**
     * partial-update with {@code fields.s.sequence-group} = 'a,b': the group changes only with a
     * sequence at least the current one (then even to NULL), retractions newer than the group clear it;
     * {@code c} takes the newest non-null value and is untouched by retractions. A key shows once
     * inserted. A key's only version shows as written (Paimon never merges a lone version, so a group
     * with a NULL sequence keeps its columns until a second version arrives). Retractions are written
     * only for inserted keys: a key with retractions alone merges to a deletion, which the compaction
     * into the last level drops with the sequence it carried (as in Apache Paimon 1.3).
     */
    private static final class PartialUpdateSequenceGroup implements Model {
        private final Map<String, Object[]> rows = new TreeMap<>();
        private final Map<String, Boolean> inserted = new TreeMap<>();
        private final Map<String, Object[]> onlyVersion = new TreeMap<>();
        private final Map<String, Integer> versions = new TreeMap<>();

        @Override
        public String[] options() {
            return new String[] {"merge-engine", "partial-update", "fields.s.sequence-group", "a,b"};
        }

        @Override
        public boolean apply(String key, RowKind kind, Integer a, String b, Integer s, Long c) {
            if (kind.isRetract() && !inserted.containsKey(key)) {
                return false;
            }
            if (versions.merge(key, 1, Integer::sum) == 1) {
                onlyVersion.put(key, new Object[] {a, b, s, c});
            } else {
                onlyVersion.remove(key);
            }
            Object[] row = rows.computeIfAbsent(key, x -> new Object[4]);
            Integer current = (Integer) row[2];
            boolean newer = s != null && (current == null || s >= current);
            if (kind.isRetract()) {
                if (newer) {
                    row[0] = null;
                    row[1] = null;
                    row[2] = s;
                }
                return true;
            }
            if (newer) {
                row[0] = a;
                row[1] = b;
                row[2] = s;
            }
            if (c != null) {
                row[3] = c;
            }
            inserted.put(key, true);
            return true;
        }

        @Override
        public Map<String, String> visible() {
            Map<String, Object[]> shown = new TreeMap<>();
            rows.forEach((k, v) -> {
                if (inserted.containsKey(k)) {
                    shown.put(k, onlyVersion.getOrDefault(k, v));
                }
            });
            return render(shown);
        }
    }

    /** first-row with ignore-delete: the first inserted row of a key stays; retractions are dropped. */
    private static final class FirstRow implements Model {
        private final Map<String, Object[]> rows = new TreeMap<>();

        @Override
        public String[] options() {
            return new String[] {"merge-engine", "first-row", "ignore-delete", "true"};
        }

        @Override
        public boolean apply(String key, RowKind kind, Integer a, String b, Integer s, Long c) {
            if (!kind.isRetract()) {
                rows.putIfAbsent(key, new Object[] {a, b, s, c});
            }
            return true;
        }

        @Override
        public Map<String, String> visible() {
            return render(rows);
        }
    }

    /**
     * aggregation: {@code a} sums (retractions subtract), {@code c} keeps the max (retractions
     * ignored), {@code b} and {@code s} the last non-null value (retractions ignored). Retractions are
     * only written for keys that exist, with a non-null {@code a}.
     */
    private static final class Aggregation implements Model {
        private final Map<String, Object[]> rows = new TreeMap<>();

        @Override
        public String[] options() {
            return new String[] {"merge-engine", "aggregation", "fields.a.aggregate-function", "sum",
                    "fields.c.aggregate-function", "max", "fields.c.ignore-retract", "true",
                    "fields.b.ignore-retract", "true", "fields.s.ignore-retract", "true"};
        }

        @Override
        public boolean apply(String key, RowKind kind, Integer a, String b, Integer s, Long c) {
            Object[] row = rows.get(key);
            if (kind.isRetract()) {
                if (row == null || a == null || row[0] == null) {
                    return false;
                }
                row[0] = (Integer) row[0] - a;
                return true;
            }
            if (row == null) {
                row = new Object[4];
                rows.put(key, row);
            }
            if (a != null) {
                row[0] = row[0] == null ? a : (Integer) row[0] + a;
            }
            if (b != null) {
                row[1] = b;
            }
            if (s != null) {
                row[2] = s;
            }
            if (c != null && (row[3] == null || c > (Long) row[3])) {
                row[3] = c;
            }
            return true;
        }

        @Override
        public Map<String, String> visible() {
            return render(rows);
        }
    }

    private static Map<String, String> render(Map<String, Object[]> rows) {
        Map<String, String> out = new TreeMap<>();
        rows.forEach((k, v) -> out.put(k, v[0] + "," + v[1] + "," + v[2] + "," + v[3]));
        return out;
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String engine : List.of("partial-update-remove-on-delete", "partial-update-sequence-group",
                "first-row", "aggregation")) {
            for (long seed : new long[] {1L, 2L, 3L, 20261201L}) {
                out.add(Arguments.of(engine, seed));
            }
        }
        return out.stream();
    }

    private static Model model(String engine) {
        switch (engine) {
            case "partial-update-remove-on-delete":
                return new PartialUpdateRemoveOnDelete();
            case "partial-update-sequence-group":
                return new PartialUpdateSequenceGroup();
            case "first-row":
                return new FirstRow();
            case "aggregation":
                return new Aggregation();
            default:
                throw new IllegalArgumentException(engine);
        }
    }

    private static Schema schema(Random random, String[] engineOptions) {
        Schema.Builder b = Schema.newBuilder()
                .column("pt", DataTypes.STRING())
                .column("k", DataTypes.INT())
                .column("a", DataTypes.INT())
                .column("b", DataTypes.STRING())
                .column("s", DataTypes.INT())
                .column("c", DataTypes.BIGINT())
                .partitionKeys("pt")
                .primaryKey("pt", "k")
                .option("bucket", String.valueOf(1 + random.nextInt(2)))
                .option("write-buffer-size", random.nextBoolean() ? "128 kb" : "1 mb")
                .option("write-buffer-spillable", String.valueOf(random.nextBoolean()))
                .option("target-file-size", "16 kb")
                .option("num-sorted-run.compaction-trigger", String.valueOf(2 + random.nextInt(3)));
        for (int i = 0; i < engineOptions.length; i += 2) {
            b.option(engineOptions[i], engineOptions[i + 1]);
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("cases")
    void tableAlwaysEqualsTheModel(String engine, long seed) throws Exception {
        Random random = new Random(seed);
        Model model = model(engine);
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE,
                new Path(tmp.resolve(engine + seed).toString()), schema(random, model.options()));
        TableCommit commit = table.newStreamCommit("model-test");
        TableWrite write = table.newWrite();
        int keySpace = 100 + random.nextInt(300);
        Map<String, List<String>> history = new TreeMap<>();
        for (int checkpoint = 1; checkpoint <= 10; checkpoint++) {
            int ops = random.nextInt(2500);
            for (int i = 0; i < ops; i++) {
                String pt = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
                int k = random.nextInt(keySpace);
                int dice = random.nextInt(10);
                RowKind kind = dice == 0 ? RowKind.DELETE : dice == 1 ? RowKind.UPDATE_BEFORE
                        : dice < 5 ? RowKind.INSERT : RowKind.UPDATE_AFTER;
                Integer a = random.nextInt(6) == 0 ? null : random.nextInt(100);
                String b = random.nextInt(4) == 0 ? null : "b" + random.nextInt(1000) + "-".repeat(random.nextInt(30));
                Integer s = random.nextInt(5) == 0 ? null : random.nextInt(50);
                Long c = random.nextInt(5) == 0 ? null : (long) random.nextInt(1000);
                if (model.apply(pt + "/" + k, kind, a, b, s, c)) {
                    history.computeIfAbsent(pt + "/" + k, x -> new ArrayList<>())
                            .add("c" + checkpoint + " " + kind.shortString() + "(" + a + "," + b + "," + s + "," + c + ")");
                    write.write(GenericRow.ofKind(kind, BinaryString.fromString(pt), k, a,
                            b == null ? null : BinaryString.fromString(b), s, c));
                }
            }
            if (random.nextInt(3) == 0) {
                write.compact(partition(random), random.nextInt(table.schema().numBuckets()), random.nextBoolean());
            }
            commit.commit(checkpoint, write.prepareCommit());
            assertThat(differences(model.visible(), read(table), history))
                    .as("%s, seed %s, after commit %s: key: model vs table", engine, seed, checkpoint).isEmpty();
        }
        write.close();
        // A fresh writer continues the same buckets (sequence numbers, levels) after a "restart".
        TableWrite restarted = table.newWrite();
        if (model.apply("p0/0", RowKind.INSERT, 7, "restart", 49, 999L)) {
            restarted.write(GenericRow.ofKind(RowKind.INSERT, BinaryString.fromString("p0"), 0, 7,
                    BinaryString.fromString("restart"), 49, 999L));
        }
        commit.commit(100, restarted.prepareCommit());
        restarted.close();
        assertThat(differences(model.visible(), read(table), history))
                .as("%s, seed %s, after restart: key: model vs table", engine, seed).isEmpty();
        assertThat(table.newReadBuilder().newScan().plan().splits().stream()
                .flatMap(sp -> sp.files().stream()).anyMatch(f -> f.level() > 0)).as("files above level 0").isTrue();
    }

    /** The first keys where the table differs from the model, "key: model vs table". */
    private static List<String> differences(Map<String, String> expected, Map<String, String> actual,
            Map<String, List<String>> history) {
        java.util.TreeSet<String> keys = new java.util.TreeSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            if (!java.util.Objects.equals(expected.get(k), actual.get(k)) && out.size() < 10) {
                out.add(k + ": " + expected.get(k) + " vs " + actual.get(k) + " after " + history.get(k));
            }
        }
        return out;
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
            Object[] values = {
                row.isNullAt(2) ? null : row.intAt(2),
                row.isNullAt(3) ? null : row.stringAt(3).toString(),
                row.isNullAt(4) ? null : row.intAt(4),
                row.isNullAt(5) ? null : row.longAt(5)};
            if (out.put(key, values[0] + "," + values[1] + "," + values[2] + "," + values[3]) != null) {
                duplicates.add(key);
            }
        });
        assertThat(duplicates).as("keys returned twice").isEmpty();
        return out;
    }
}
