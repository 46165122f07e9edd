package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.Filter;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Merged manifests written sorted by partition (docs/format.md §5.7) and Apache Paimon 1.3.1: a
 * partitioned primary-key table whose small manifest target and merge count make our commits merge
 * manifests (minor and full compaction) reads the same for Paimon, whole and one partition at a time;
 * Paimon's commits then merge our sorted manifests with its own, and we read the result.
 */
class SortedManifestsInteropTest extends InteropTestBase {
    private static final String DB = "sorted_manifests";
    private static final TableSpec SPEC = TableSpec.of("dt", "STRING", "id", "INT", "amount", "BIGINT")
            .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "2")
            .withOption("manifest.target-file-size", "4 kb").withOption("manifest.merge-min-count", "3")
            .withOption("manifest.full-compaction-threshold-size", "12 kb");

    private final Map<String, CanonicalRow> model = new TreeMap<>();
    private final Random random = new Random(11);
    private long version;

    SortedManifestsInteropTest() {
        super(DB);
    }

    private List<CanonicalRow> batch() {
        List<CanonicalRow> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String dt = "d" + random.nextInt(9);
            int id = random.nextInt(30);
            String key = dt + "/" + id;
            if (random.nextInt(6) == 0 && model.containsKey(key)) {
                rows.add(model.remove(key).withKind(CanonicalRow.Kind.DELETE));
            } else {
                CanonicalRow row = CanonicalRow.of(dt, id, ++version);
                model.put(key, row);
                rows.add(row);
            }
        }
        return rows;
    }

    private List<CanonicalRow> partition(String dt) {
        return model.values().stream().filter(r -> dt.equals(r.get(0))).toList();
    }

    @Test
    void paimonReadsAndContinuesATableOfSortedMergedManifests() throws Exception {
        ours.createTable(DB, "t", SPEC);
        for (int commit = 0; commit < 14; commit++) {
            ours.write(DB, "t", batch());
        }
        assertSomeMergedManifestIsSortedByPartition();

        Canon.assertSameRowsIgnoringKind("Paimon reading the table", new ArrayList<>(model.values()),
                paimon.readAll(DB, "t"));
        for (int d = 0; d < 9; d++) {
            String dt = "d" + d;
            Canon.assertSameRowsIgnoringKind("Paimon reading partition " + dt, partition(dt),
                    paimon.scan(DB, "t", PaimonOracle.Query.all().filter(Filter.eq("dt", dt))).rows());
        }

        for (int commit = 0; commit < 8; commit++) {
            paimon.write(DB, "t", batch());
        }
        Canon.assertSameRowsIgnoringKind("our reading after Paimon's commits", new ArrayList<>(model.values()),
                ours.readAll(DB, "t"));
        for (int d = 0; d < 9; d++) {
            String dt = "d" + d;
            Canon.assertSameRowsIgnoringKind("our reading of partition " + dt, partition(dt),
                    ours.scan(DB, "t", null, Filter.eq("dt", dt)).rows());
        }
    }

    /** Among the latest snapshot's base manifests, one of several entries holds them in partition order. */
    private void assertSomeMergedManifestIsSortedByPartition() throws Exception {
        FileStoreTable table = (FileStoreTable) ours.table(DB, "t");
        Snapshot latest = table.latestSnapshot().orElseThrow();
        ManifestFile manifestFile = table.manifestFile();
        int sortedWithSeveralPartitions = 0;
        for (ManifestFileMeta m : table.manifestList().read(latest.baseManifestList(), latest.baseManifestListSize())) {
            List<String> partitions = new ArrayList<>();
            for (ManifestEntry e : manifestFile.read(m.fileName(), m.fileSize())) {
                partitions.add(e.partition().stringAt(0).toString());
            }
            if (partitions.stream().distinct().count() > 1 && partitions.equals(partitions.stream().sorted().toList())) {
                sortedWithSeveralPartitions++;
            }
        }
        assertThat(sortedWithSeveralPartitions).as("merged manifests of several partitions, in partition order")
                .isPositive();
    }
}
