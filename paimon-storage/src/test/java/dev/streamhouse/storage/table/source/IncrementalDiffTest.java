package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static dev.streamhouse.storage.table.source.StreamFixture.pk;
import static dev.streamhouse.storage.table.source.StreamFixture.read;
import static dev.streamhouse.storage.table.source.StreamFixture.sorted;
import static dev.streamhouse.storage.testutils.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Diff reads, as Apache Paimon 1.3.1 reads {@code incremental-between} of two tags and scan mode {@code diff}:
 * the keys whose merged version differs between two snapshots, as their end version; removed keys only when
 * retractions are kept. Checked against full reads of the two snapshots, over random upserts, deletes and
 * compactions.
 */
class IncrementalDiffTest {
    @TempDir
    java.nio.file.Path tmp;

    private StreamFixture fx;

    @BeforeEach
    void fixture() {
        fx = new StreamFixture(tmp);
    }

    private static List<String> diff(FileStoreTable table, Map<String, String> options) throws Exception {
        ReadBuilder rb = table.copy(options).newReadBuilder();
        return sorted(read(rb, rb.newScan().plan().splits()));
    }

    private static List<String> fullAt(FileStoreTable table, long snapshotId) throws Exception {
        return TestTables.readAll(table.copy(Map.of("scan.snapshot-id", Long.toString(snapshotId))));
    }

    /** What a diff read must return: the end's rows whose key is new or whose value changed. */
    private static List<String> expectedDiff(List<String> start, List<String> end) {
        Set<String> startValues = new HashSet<>();
        for (String r : start) {
            startValues.add(valuesOf(r));
        }
        List<String> out = new ArrayList<>();
        for (String r : end) {
            if (!startValues.contains(valuesOf(r))) {
                out.add(r);
            }
        }
        return sorted(out);
    }

    private static String valuesOf(String row) {
        return row.substring(row.indexOf('('));
    }

    @Test
    void twoTagsReadTheKeysThatChangedBetweenThem() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "2");
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "a"), pk(3, 30, "b"), pk(4, 40, "b"));
        TableTags.of(table).createFromLatest("t1");
        fx.commit(table, pk(2, 21, "a"), pk(RowKind.DELETE, 3, 30, "b"), pk(5, 50, "b"));
        fx.commit(table, pk(4, 40, "b"));
        fx.compactAll(table);
        fx.commit(table, pk(6, 60, "a"), pk(RowKind.DELETE, 6, 60, "a"));
        TableTags.of(table).createFromLatest("t2");

        assertThat(diff(table, Map.of("incremental-between", "t1,t2")))
                .as("2 changed, 5 new; 4 rewritten with its old value and 6 inserted and deleted are no change; 3 "
                        + "deleted is left out")
                .containsExactly("+I(2, 21, a)", "+I(5, 50, b)");
        ReadBuilder keeping = ((DataReadBuilder) table.copy(Map.of("incremental-between", "t1,t2")).newReadBuilder())
                .keepingRetractions();
        assertThat(sorted(read(keeping, keeping.newScan().plan().splits())))
                .as("with retractions kept, a removed key comes out as -D with its start version, and an end "
                        + "version that is a retraction as it is (Paimon keeps both)")
                .containsExactly("+I(2, 21, a)", "+I(5, 50, b)", "-D(3, 30, b)", "-D(6, 60, a)");
        assertThat(diff(table, Map.of("incremental-between", "t2,t2"))).isEmpty();
        assertThat(diff(table, Map.of("incremental-between", "t1,t2", "incremental-between-scan-mode", "delta")))
                .as("two tags are read as a diff whatever the scan mode, as in Paimon")
                .containsExactly("+I(2, 21, a)", "+I(5, 50, b)");
        assertThatThrownBy(() -> table.copy(Map.of("incremental-between", "t2,t1")).newReadBuilder().newScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the end tag 't1' (snapshot 1) is older than the start tag 't2'");
        assertThatThrownBy(() -> table.copy(Map.of("incremental-between", "t1,nope")).newReadBuilder().newScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'t1,nope': it names neither two existing tags nor two snapshot ids");
    }

    @Test
    void diffModeOverRandomHistoriesMatchesTheDifferenceOfFullReads() throws Exception {
        for (int seed = 0; seed < 3; seed++) {
            Random random = new Random(seed);
            FileStoreTable table = fx.pkTable("bucket", "2", "num-sorted-run.compaction-trigger", "3");
            List<Long> ids = new ArrayList<>();
            for (int step = 0; step < 14; step++) {
                if (step > 0 && random.nextInt(5) == 0) {
                    ids.add(fx.compactAll(table));
                    continue;
                }
                List<InternalRow> rows = new ArrayList<>();
                for (int i = 0; i < 1 + random.nextInt(12); i++) {
                    int id = random.nextInt(40);
                    String dt = id % 3 == 0 ? "a" : "b";
                    rows.add(random.nextInt(4) == 0 ? pk(RowKind.DELETE, id, 0, dt)
                            : pk(id, random.nextInt(4), dt));
                }
                ids.add(fx.commit(table, rows));
            }
            for (int i = 0; i < ids.size(); i += 3) {
                for (int j = i; j < ids.size(); j += 2) {
                    long start = ids.get(i);
                    long end = ids.get(j);
                    assertThat(diff(table, Map.of("incremental-between", start + "," + end,
                            "incremental-between-scan-mode", "diff")))
                            .as("seed " + seed + ", diff " + start + "," + end)
                            .isEqualTo(expectedDiff(fullAt(table, start), fullAt(table, end)));
                }
            }
        }
    }

    @Test
    void appendTablesReadTheRowsOfFilesTheEndAdded() throws Exception {
        FileStoreTable table = fx.appendTable();
        fx.commit(table, row(1, "r1", "a"));
        TableTags.of(table).createFromLatest("t1");
        fx.commit(table, row(2, "r2", "a"), row(3, "r3", "b"));
        TableTags.of(table).createFromLatest("t2");
        assertThat(diff(table, Map.of("incremental-between", "t1,t2")))
                .containsExactly("+I(2, r2, a)", "+I(3, r3, b)");
        assertThat(diff(table, Map.of("incremental-between", "1,2", "incremental-between-scan-mode", "diff")))
                .containsExactly("+I(2, r2, a)", "+I(3, r3, b)");
    }

    @Test
    void diffsNeedTwoExistingSnapshotsAndTablesWithoutDeletionVectors() throws Exception {
        FileStoreTable table = fx.pkTable();
        fx.commit(table, pk(1, 10, "a"));
        fx.commit(table, pk(1, 11, "a"));
        assertThatThrownBy(() -> table.copy(Map.of("incremental-between", "0,2", "incremental-between-scan-mode",
                "diff")).newReadBuilder().newScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("snapshot 0 does not exist (the retained snapshots are 1 to 2");
        assertThat(diff(table, Map.of("incremental-between", "1,2", "incremental-between-scan-mode", "diff")))
                .containsExactly("+I(1, 11, a)");

        FileStoreTable dv = fx.pkTable("deletion-vectors.enabled", "true");
        fx.commit(dv, pk(1, 10, "a"));
        fx.commit(dv, pk(1, 11, "a"));
        assertThatThrownBy(() -> dv.copy(Map.of("incremental-between", "1,2", "incremental-between-scan-mode",
                "diff")).newReadBuilder().newScan())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("'deletion-vectors.enabled' are not implemented yet");
    }

    @Test
    void incrementalToAutoTagReadsTheDifferenceFromTheAutomaticTagBefore() throws Exception {
        FileStoreTable table = fx.pkTable("tag.creation-period", "daily");
        long first = fx.commit(table, pk(1, 10, "a"), pk(2, 20, "a"));
        long second = fx.commit(table, pk(2, 21, "a"));
        long third = fx.commit(table, pk(3, 30, "b"));
        TableTags tags = TableTags.of(table);
        tags.create("2024-05-01", first, null);
        tags.create("2024-05-02", second, null);
        tags.create("2024-05-04", third, null);
        tags.create("manual", first, null);

        assertThat(diff(table, Map.of("incremental-to-auto-tag", "2024-05-04")))
                .as("from 2024-05-02, the automatic tag before").containsExactly("+I(3, 30, b)");
        assertThat(diff(table, Map.of("incremental-to-auto-tag", "2024-05-02"))).containsExactly("+I(2, 21, a)");
        assertThat(diff(table, Map.of("incremental-to-auto-tag", "2024-05-01"))).as("no tag before").isEmpty();
        assertThat(diff(table, Map.of("incremental-to-auto-tag", "2024-05-09"))).as("no such tag").isEmpty();
        assertThatThrownBy(() -> table.copy(Map.of("incremental-to-auto-tag", "manual")).newReadBuilder().newScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'manual': it is not the name of an automatic tag of 'tag.creation-period' = "
                        + "'daily'");
        assertThatThrownBy(() -> table.copy(Map.of("incremental-to-auto-tag", "2024-05-04")).newReadBuilder()
                .newStreamScan()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batch");
    }
}
