package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.StreamFixture.Planned;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static dev.streamhouse.storage.table.source.StreamFixture.drain;
import static dev.streamhouse.storage.table.source.StreamFixture.pk;
import static dev.streamhouse.storage.table.source.StreamFixture.rows;
import static dev.streamhouse.storage.table.source.StreamFixture.sorted;
import static dev.streamhouse.storage.testutils.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The delta splits of a streaming read ({@link DataSplit#delta()}): which files of which snapshots,
 * how they are grouped and ordered, and the rows and row kinds read from them.
 */
class DeltaSplitTest {
    @TempDir
    java.nio.file.Path tmp;

    private StreamFixture fx;

    @BeforeEach
    void fixture() {
        fx = new StreamFixture(tmp);
    }

    private static ReadBuilder fromFirst(FileStoreTable table, String... options) {
        Map<String, String> m = new java.util.HashMap<>(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"));
        for (int i = 0; i < options.length; i += 2) {
            m.put(options[i], options[i + 1]);
        }
        return table.copy(m).newReadBuilder();
    }

    private static void assertOneSplitPerBucketInSequenceOrder(List<Planned> plans) {
        for (Planned p : plans) {
            Set<List<Object>> buckets = new HashSet<>();
            for (DataSplit s : p.splits()) {
                assertThat(s.delta()).isTrue();
                assertThat(s.rawConvertible()).isTrue();
                assertThat(s.snapshotId()).isEqualTo(p.snapshotId());
                assertThat(buckets.add(List.of(s.partition(), s.bucket())))
                        .as("one split per (partition, bucket) in snapshot %s", p.snapshotId()).isTrue();
                assertThat(s.files()).isSortedAccordingTo(SnapshotChangePlanner.SEQUENCE_ORDER);
            }
        }
    }

    @Test
    void appendTableStreamsTheRowsOfEachAppendSnapshotExactlyOnce() throws Exception {
        // write-only: six APPEND snapshots, without the COMPACT snapshot the writer's compaction would add.
        FileStoreTable table = fx.appendTable("bucket", "2", "bucket-key", "id", "write-only", "true");
        List<List<String>> perSnapshot = new ArrayList<>();
        int id = 0;
        Random random = new Random(3);
        for (int s = 0; s < 6; s++) {
            List<InternalRow> batch = TestTables.rows(id, 1 + random.nextInt(8), 3);
            id += batch.size();
            fx.commit(table, batch);
            perSnapshot.add(TestTables.show(batch));
        }
        ReadBuilder rb = fromFirst(table);
        List<Planned> plans = drain(rb.newStreamScan(), rb);
        assertThat(plans).extracting(Planned::snapshotId).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        for (int s = 0; s < plans.size(); s++) {
            assertThat(sorted(plans.get(s).rows())).as("snapshot %s", s + 1).isEqualTo(perSnapshot.get(s));
        }
        assertOneSplitPerBucketInSequenceOrder(plans);
    }

    @Test
    void primaryKeyTableWithoutProducerStreamsTheNewDataFilesWithTheirRowKinds() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "2");
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "a"), pk(3, 30, "b"));
        fx.commit(table, pk(RowKind.UPDATE_BEFORE, 1, 10, "a"), pk(RowKind.UPDATE_AFTER, 1, 11, "a"),
                pk(RowKind.DELETE, 2, 20, "a"), pk(4, 40, "b"));
        ReadBuilder rb = fromFirst(table);
        List<Planned> plans = drain(rb.newStreamScan(), rb);
        assertThat(plans).hasSize(2);
        assertThat(sorted(plans.get(0).rows())).containsExactly("+I(1, 10, a)", "+I(2, 20, a)", "+I(3, 30, b)");
        // The write buffer merged -U/+U of key 1 into the +U stored; the delete is stored as -D.
        assertThat(sorted(plans.get(1).rows())).containsExactly("+I(4, 40, b)", "+U(1, 11, a)", "-D(2, 20, a)");
        assertOneSplitPerBucketInSequenceOrder(plans);
        // The batch read of the same table is merged.
        assertThat(TestTables.readAll(table)).containsExactly("+I(3, 30, b)", "+I(4, 40, b)", "+U(1, 11, a)");
    }

    @Test
    void filesOfOneBucketAreReadInSequenceOrderWhateverTheManifestOrder() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "1");
        List<CommitMessage> messages = new ArrayList<>();
        try (TableWrite w = table.newWrite()) {
            w.write(pk(1, 10, "a"));
            List<CommitMessage> first = w.prepareCommit();
            w.write(pk(1, 11, "a"));
            List<CommitMessage> second = w.prepareCommit();
            w.write(pk(RowKind.DELETE, 1, 11, "a"));
            messages.addAll(w.prepareCommit());
            messages.addAll(second);
            messages.addAll(first);
        }
        table.newStreamCommit("test").commit(1, messages);
        ReadBuilder rb = fromFirst(table);
        List<Planned> plans = drain(rb.newStreamScan(), rb);
        assertThat(plans).singleElement().satisfies(p -> {
            assertThat(p.splits()).singleElement().satisfies(s -> assertThat(s.files()).hasSize(3));
            assertThat(p.rows()).containsExactly("+I(1, 10, a)", "+I(1, 11, a)", "-D(1, 11, a)");
        });
        assertOneSplitPerBucketInSequenceOrder(plans);
    }

    @Test
    void inputChangelogIsStreamedExactlyAsWritten() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "2", "changelog-producer", "input");
        Random random = new Random(5);
        Map<Integer, Long> live = new TreeMap<>();
        List<InternalRow> input = new ArrayList<>();
        List<Integer> snapshotSizes = new ArrayList<>();
        long version = 0;
        for (int s = 0; s < 5; s++) {
            List<InternalRow> batch = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                int key = random.nextInt(8);
                Long old = live.get(key);
                version++;
                if (old == null) {
                    batch.add(pk(key, version, "a"));
                    live.put(key, version);
                } else if (random.nextInt(3) == 0) {
                    batch.add(pk(RowKind.DELETE, key, old, "a"));
                    live.remove(key);
                } else {
                    batch.add(pk(RowKind.UPDATE_BEFORE, key, old, "a"));
                    batch.add(pk(RowKind.UPDATE_AFTER, key, version, "a"));
                    live.put(key, version);
                }
            }
            fx.commit(table, batch);
            input.addAll(batch);
            snapshotSizes.add(batch.size());
        }
        // A full compaction in between must not repeat anything.
        fx.compactAll(table);
        fx.commit(table, pk(RowKind.DELETE, 100, 0, "a"));
        input.add(pk(RowKind.DELETE, 100, 0, "a"));

        ReadBuilder rb = fromFirst(table);
        List<Planned> plans = drain(rb.newStreamScan(), rb);
        assertThat(plans).hasSize(7);
        assertThat(plans.get(5).splits()).as("the COMPACT snapshot").isEmpty();
        for (int s = 0; s < 5; s++) {
            assertThat(plans.get(s).rows()).hasSize(snapshotSizes.get(s));
        }
        assertThat(byKey(rows(plans))).isEqualTo(byKey(input.stream().map(Object::toString).toList()));
        assertThat(rows(plans)).anyMatch(r -> r.startsWith("-U")).anyMatch(r -> r.startsWith("-D"));
        assertOneSplitPerBucketInSequenceOrder(plans);
    }

    /** Rows per key (first field) in read order. */
    private static Map<String, List<String>> byKey(List<String> rows) {
        Map<String, List<String>> out = new TreeMap<>();
        for (String r : rows) {
            out.computeIfAbsent(r.substring(3, r.indexOf(',')), k -> new ArrayList<>()).add(r);
        }
        return out;
    }

    @Test
    void compactSnapshotsAreSkippedSoNothingIsReadTwice() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "1");
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "a"));
        fx.commit(table, pk(RowKind.UPDATE_AFTER, 1, 11, "a"));
        long compact = fx.compactAll(table);
        fx.commit(table, pk(3, 30, "a"));
        ReadBuilder rb = fromFirst(table);
        List<Planned> plans = drain(rb.newStreamScan(), rb);
        assertThat(plans).extracting(Planned::snapshotId).containsExactly(1L, 2L, compact, compact + 1);
        assertThat(plans.get(2).splits()).isEmpty();
        assertThat(rows(plans)).containsExactly("+I(1, 10, a)", "+I(2, 20, a)", "+U(1, 11, a)", "+I(3, 30, a)");
    }

    @Test
    void overwriteSnapshotsAreSkippedUnlessTheTablesOverwriteOptionIsSet() throws Exception {
        FileStoreTable table = fx.appendTable();
        fx.commit(table, row(1, "x", "a"), row(2, "y", "b"));
        long overwrite = fx.overwrite(table, "a", row(10, "z", "a"));
        fx.commit(table, row(3, "w", "b"));

        ReadBuilder skipping = fromFirst(table);
        List<Planned> plans = drain(skipping.newStreamScan(), skipping);
        assertThat(plans).extracting(Planned::snapshotId).containsExactly(1L, overwrite, overwrite + 1);
        assertThat(plans.get(1).splits()).isEmpty();
        // 'streaming-read-overwrite' is refused (not implemented; Paimon refuses it for append tables anyway).
        assertThatThrownBy(() -> fromFirst(table, "streaming-read-overwrite", "true"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("option 'streaming-read-overwrite' is not supported yet");

        ReadBuilder reading = fromFirst(table, "streaming-read-append-overwrite", "true");
        plans = drain(reading.newStreamScan(), reading);
        assertThat(plans.get(1).rows()).as("the rows the overwrite adds, removed rows not retracted")
                .containsExactly("+I(10, z, a)");
        assertThat(plans.get(1).splits()).allMatch(DataSplit::delta);

        FileStoreTable pkTable = fx.pkTable("bucket", "1");
        fx.commit(pkTable, pk(1, 10, "a"));
        long pkOverwrite = fx.overwrite(pkTable, "a", pk(2, 20, "a"));
        ReadBuilder pkSkipping = fromFirst(pkTable);
        assertThat(drain(pkSkipping.newStreamScan(), pkSkipping).get(1).splits()).isEmpty();
        // Paimon retracts what an overwrite removes; until that is implemented the option is refused.
        assertThat(pkOverwrite).isEqualTo(2);
        assertThatThrownBy(() -> fromFirst(pkTable, "streaming-read-overwrite", "true"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("option 'streaming-read-overwrite' is not supported yet");
    }

    @Test
    void partitionFilterPrunesSplitsAndValueFiltersDoNotDropPrimaryKeyChanges() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "2");
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "b"), pk(3, 30, "a"));
        fx.commit(table, pk(RowKind.UPDATE_AFTER, 1, 99, "a"), pk(RowKind.UPDATE_AFTER, 2, 99, "b"),
                pk(RowKind.DELETE, 3, 30, "a"));
        PredicateBuilder pb = new PredicateBuilder(table.rowType());

        ReadBuilder partition = fromFirst(table).withFilter(pb.equal(2, "a"));
        List<Planned> plans = drain(partition.newStreamScan(), partition);
        assertThat(plans).allSatisfy(p -> assertThat(p.splits())
                .allMatch(s -> s.partition().stringAt(0).toString().equals("a")));
        assertThat(rows(plans)).allMatch(r -> r.endsWith(", a)")).hasSize(4);

        // v < 50 matched key 1 before its update to 99: the update must still reach the consumer, or
        // it would keep the stale row. Key conjuncts still filter.
        ReadBuilder value = fromFirst(table).withFilter(pb.lessThan(1, 50L));
        List<String> changes = sorted(rows(drain(value.newStreamScan(), value)));
        assertThat(changes).containsExactly("+I(1, 10, a)", "+I(2, 20, b)", "+I(3, 30, a)", "+U(1, 99, a)",
                "+U(2, 99, b)", "-D(3, 30, a)");
        ReadBuilder key = fromFirst(table).withFilter(PredicateBuilder.and(pb.equal(0, 1), pb.lessThan(1, 50L)));
        assertThat(sorted(rows(drain(key.newStreamScan(), key)))).containsExactly("+I(1, 10, a)", "+U(1, 99, a)");

        // Append tables: a value filter filters rows (there are no updates to lose).
        FileStoreTable append = fx.appendTable();
        fx.commit(append, row(1, "x", "a"), row(2, "y", "a"));
        PredicateBuilder apb = new PredicateBuilder(append.rowType());
        ReadBuilder appendRb = fromFirst(append).withFilter(apb.equal(0, 2));
        assertThat(rows(drain(appendRb.newStreamScan(), appendRb))).containsExactly("+I(2, y, a)");
    }

    @Test
    void projectionKeepsRowKinds() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "1", "changelog-producer", "input");
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "a"));
        fx.commit(table, pk(RowKind.UPDATE_BEFORE, 1, 10, "a"), pk(RowKind.UPDATE_AFTER, 1, 11, "a"),
                pk(RowKind.DELETE, 2, 20, "a"));
        ReadBuilder rb = fromFirst(table).withProjection(List.of("v", "id"));
        List<Planned> plans = drain(rb.newStreamScan(), rb);
        assertThat(plans.get(1).rows()).containsExactly("-U(10, 1)", "+U(11, 1)", "-D(20, 2)");
        assertThat(Collections.frequency(rows(plans), "+I(10, 1)")).isEqualTo(1);
        List<DataFileMeta> files = plans.get(1).splits().get(0).files();
        assertThat(files).allMatch(f -> f.fileName().startsWith("changelog-"));
    }
}
