package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.ChangelogRecords;
import dev.streamhouse.storage.testutils.ChangelogRecords.Change;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code changelog-producer} = lookup and full-compaction against a model, for every merge engine: random upserts and
 * deletes over many commits of one long-lived write (keys spread over several levels, small
 * compaction trigger), and after every commit
 * <ul>
 *   <li>the batch read equals the model of the engine (so lookups merged each key's older value
 *       exactly once);
 *   <li>the changelog of that commit is in the COMPACT snapshot, and replayed on the changelog so far
 *       it is exact: -U/-D retract exactly the current row, +I only for absent keys, +U only after
 *       its -U, and the replay equals the batch read;
 *   <li>with {@code changelog-producer.row-deduplicate}, no -U/+U pair of equal rows; first-row's
 *       changelog is insert-only.
 * </ul>
 * With {@code deletion-vectors.enabled} the batch read does not merge at all (files above level 0 read
 * raw, their deleted rows skipped), so it equals the model only if every older version was marked
 * deleted exactly when a newer one was written.
 */
class CompactionChangelogModelTest {
    @TempDir
    java.nio.file.Path tmp;

    enum Engine { DEDUPLICATE, DEDUPLICATE_ROW_DEDUP, PARTIAL_UPDATE, AGGREGATION, FIRST_ROW }

    /** The producer and every how many commits its changelog is complete. */
    enum Producer {
        LOOKUP("lookup", 1, false), LOOKUP_WITH_DELETION_VECTORS("lookup", 1, true),
        FULL_COMPACTION("full-compaction", 1, false), FULL_COMPACTION_EVERY_3("full-compaction", 3, false);

        final String option;
        final int deltaCommits;
        final boolean deletionVectors;

        Producer(String option, int deltaCommits, boolean deletionVectors) {
            this.option = option;
            this.deltaCommits = deltaCommits;
            this.deletionVectors = deletionVectors;
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Producer p : Producer.values()) {
            for (Engine e : Engine.values()) {
                if (e == Engine.FIRST_ROW && p != Producer.LOOKUP) {
                    continue;
                }
                for (long seed : p.option.equals("lookup") ? new long[] {1, 2} : new long[] {1}) {
                    out.add(Arguments.of(p, e, seed));
                }
            }
        }
        return out.stream();
    }

    private FileStoreTable create(Producer producer, Engine engine) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.BIGINT())
                .column("w", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("changelog-producer", producer.option)
                .option("num-sorted-run.compaction-trigger", "3")
                .option("num-levels", "4");
        if (!producer.option.equals("lookup")) {
            b.option("full-compaction.delta-commits", String.valueOf(producer.deltaCommits));
        }
        if (producer.deletionVectors) {
            b.option("deletion-vectors.enabled", "true");
        }
        switch (engine) {
            case DEDUPLICATE_ROW_DEDUP:
                b.option("changelog-producer.row-deduplicate", "true");
                break;
            case PARTIAL_UPDATE:
                b.option("merge-engine", "partial-update");
                break;
            case AGGREGATION:
                b.option("merge-engine", "aggregation").option("fields.v.aggregate-function", "sum")
                        .option("fields.w.aggregate-function", "last_non_null_value");
                break;
            case FIRST_ROW:
                b.option("merge-engine", "first-row");
                break;
            default:
                break;
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
    }

    @ParameterizedTest(name = "{0} {1} seed {2}")
    @MethodSource("cases")
    void changelogReplaysToTheTableAndTheTableToTheModel(Producer producer, Engine engine, long seed) throws Exception {
        FileStoreTable table = create(producer, engine);
        Random random = new Random(seed);
        Map<Integer, Object[]> model = new TreeMap<>();
        Map<Integer, String> replayed = new TreeMap<>();
        long seenSnapshot = 0;
        TableCommit commit = table.newStreamCommit("u");
        try (TableWrite write = table.newWrite()) {
            for (int c = 1; c <= 25; c++) {
                int rows = 1 + random.nextInt(30);
                for (int i = 0; i < rows; i++) {
                    InternalRow row = nextRow(engine, random, model);
                    write.write(row);
                    apply(engine, model, row);
                }
                if (c % 7 == 0) {
                    // Everything to the last level: the next commits put keys on the levels above it too.
                    for (int bucket = 0; bucket < 2; bucket++) {
                        write.compact(dev.streamhouse.storage.data.BinaryRow.EMPTY_ROW, bucket, true);
                    }
                }
                commit.commit(c, write.prepareCommit());

                assertThat(stripKinds(TestTables.readAll(table))).as("batch read after commit %s", c)
                        .isEqualTo(render(model));

                List<Change> fresh = ChangelogRecords.readAfter(table, seenSnapshot);
                seenSnapshot = table.latestSnapshot().orElseThrow().id();
                for (Change change : fresh) {
                    assertThat(change.commitKind()).isEqualTo(CommitKind.COMPACT);
                    replay(engine, replayed, change);
                }
                if (c % producer.deltaCommits != 0) {
                    continue;
                }
                assertThat(sorted(replayed.values())).as("changelog replayed after commit %s", c)
                        .isEqualTo(render(model));
            }
        }
    }

    private static InternalRow nextRow(Engine engine, Random random, Map<Integer, Object[]> model) {
        int id = random.nextInt(40);
        Long v = random.nextInt(5) == 0 && engine == Engine.PARTIAL_UPDATE ? null : (long) random.nextInt(4);
        BinaryString w = random.nextInt(3) == 0 ? null : BinaryString.fromString("w" + random.nextInt(3));
        boolean delete = random.nextInt(5) == 0 && engine != Engine.PARTIAL_UPDATE && engine != Engine.FIRST_ROW
                && engine != Engine.AGGREGATION && model.containsKey(id);
        if (delete) {
            Object[] current = model.get(id);
            return GenericRow.ofKind(RowKind.DELETE, id, current[0], current[1]);
        }
        return GenericRow.ofKind(RowKind.INSERT, id, v, w);
    }

    private static void apply(Engine engine, Map<Integer, Object[]> model, InternalRow row) {
        int id = row.intAt(0);
        Long v = row.isNullAt(1) ? null : row.longAt(1);
        BinaryString w = row.isNullAt(2) ? null : row.stringAt(2);
        Object[] current = model.get(id);
        switch (engine) {
            case DEDUPLICATE:
            case DEDUPLICATE_ROW_DEDUP:
                if (row.rowKind() == RowKind.DELETE) {
                    model.remove(id);
                } else {
                    model.put(id, new Object[] {v, w});
                }
                break;
            case PARTIAL_UPDATE:
                if (current == null) {
                    model.put(id, new Object[] {v, w});
                } else {
                    model.put(id, new Object[] {v != null ? v : current[0], w != null ? w : current[1]});
                }
                break;
            case AGGREGATION:
                if (current == null) {
                    model.put(id, new Object[] {v, w});
                } else {
                    Long sum = current[0] == null ? v : v == null ? (Long) current[0] : (Long) current[0] + v;
                    model.put(id, new Object[] {sum, w != null ? w : current[1]});
                }
                break;
            case FIRST_ROW:
                model.putIfAbsent(id, new Object[] {v, w});
                break;
            default:
                throw new AssertionError(engine);
        }
    }

    private static void replay(Engine engine, Map<Integer, String> replayed, Change change) {
        int id = change.value().intAt(0);
        String row = rowString(change.value());
        String current = replayed.get(id);
        switch (change.value().rowKind()) {
            case INSERT:
                assertThat(current).as("+I of a key that exists: %s", row).isNull();
                replayed.put(id, row);
                break;
            case UPDATE_BEFORE:
            case DELETE:
                assertThat(engine).isNotEqualTo(Engine.FIRST_ROW);
                assertThat(current).as("retraction %s of the current row", change.show()).isEqualTo(row);
                replayed.remove(id);
                pendingAfter = change.value().rowKind() == RowKind.UPDATE_BEFORE ? row : null;
                break;
            case UPDATE_AFTER:
                assertThat(current).as("+U %s without its -U", row).isNull();
                assertThat(pendingAfter).as("+U %s follows a -U", row).isNotNull();
                if (engine == Engine.DEDUPLICATE_ROW_DEDUP) {
                    assertThat(row).as("row-deduplicate keeps only changed rows").isNotEqualTo(pendingAfter);
                }
                pendingAfter = null;
                replayed.put(id, row);
                break;
            default:
                throw new AssertionError(change);
        }
    }

    private static String pendingAfter;

    private static String rowString(GenericRow value) {
        GenericRow copy = GenericRow.of(value.field(0), value.field(1), value.field(2));
        return copy.toString().substring(2);
    }

    private static List<String> sorted(java.util.Collection<String> rows) {
        List<String> out = new ArrayList<>(rows);
        out.sort(null);
        return out;
    }

    private static List<String> stripKinds(List<String> rows) {
        List<String> out = new ArrayList<>();
        for (String r : rows) {
            out.add(r.substring(2));
        }
        return out;
    }

    private static List<String> render(Map<Integer, Object[]> model) {
        List<String> out = new ArrayList<>();
        Map<Integer, String> byId = new HashMap<>();
        for (Map.Entry<Integer, Object[]> e : model.entrySet()) {
            GenericRow row = GenericRow.of(e.getKey(), e.getValue()[0], e.getValue()[1]);
            byId.put(e.getKey(), row.toString().substring(2));
        }
        out.addAll(byId.values());
        out.sort(null);
        return out;
    }
}
