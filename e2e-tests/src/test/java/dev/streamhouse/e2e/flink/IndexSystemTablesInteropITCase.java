package dev.streamhouse.e2e.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.TableSpec;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * {@code t$table_indexes} and {@code t$files} read through our catalog give the rows Apache Paimon
 * 1.3.1's own Flink catalog reads from the same warehouse ({@link TwoCatalogs}), column types
 * included, for tables Paimon wrote: a primary-key table with deletion vectors (its lookup
 * compactions leave {@code DELETION_VECTORS} index files with ranges and cardinalities, and data files
 * with their own delete counts) and dynamic-bucket tables, partitioned and not ({@code HASH} index
 * files); at the latest and at an earlier snapshot, whole and projected and filtered. Rows of a batch
 * query are compared as sorted lists (their order across tasks is not defined).
 */
class IndexSystemTablesInteropITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension();

    @TempDir
    Path warehouse;

    private TableEnvironment tEnv;
    private PaimonOracle paimon;

    @BeforeEach
    void open() {
        tEnv = TwoCatalogs.open(warehouse);
        paimon = new PaimonOracle(warehouse);
    }

    @AfterEach
    void close() throws Exception {
        paimon.close();
    }

    private List<String> sorted(String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        out.sort(null);
        return out;
    }

    /**
     * The rows of {@code query} (with {@code %s} for the catalog) through our catalog, checked equal to
     * those through Paimon's, and returned.
     */
    private List<String> same(String query) throws Exception {
        List<String> ours = sorted(String.format(query, "ours"));
        assertThat(ours).as("our rows of " + query + " are Paimon's").isEqualTo(sorted(String.format(query, "theirs")));
        return ours;
    }

    /**
     * Both system tables, whole, described, at snapshot {@code earlier}, and projected and filtered;
     * returns the files with a delete count.
     */
    private List<String> sameIndexesAndFiles(String table, long earlier) throws Exception {
        String indexes = "%s.`default`.`" + table + "$table_indexes`";
        String files = "%s.`default`.`" + table + "$files`";
        same("DESCRIBE " + indexes);
        same("DESCRIBE " + files);
        same("SELECT * FROM " + indexes);
        same("SELECT * FROM " + files);
        String atEarlier = " /*+ OPTIONS('scan.snapshot-id' = '" + earlier + "') */";
        assertThat(same("SELECT * FROM " + indexes + atEarlier)).as("the earlier snapshot's index files differ")
                .isNotEqualTo(same("SELECT * FROM " + indexes));
        same("SELECT * FROM " + files + atEarlier);
        same("SELECT file_name, bucket, row_count FROM " + indexes + " WHERE bucket > 0");
        same("SELECT `partition`, COUNT(*), SUM(file_size), SUM(row_count) FROM " + indexes + " GROUP BY `partition`");
        return same("SELECT file_path, level, deleteRowCount FROM " + files + " WHERE deleteRowCount > 0");
    }

    @Test
    void ofAPaimonTableWithDeletionVectors() throws Exception {
        paimon.createTable("default", "dv", TableSpec.of("dt", "STRING", "id", "INT", "v", "STRING")
                .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "2")
                .withOption("deletion-vectors.enabled", "true"));
        // A large first version of every key, fully compacted; a medium round of updates and then small
        // rounds of updates and deletes, each compacted with lookup into a level above the older ones,
        // whose replaced rows get vectors; last a write-only commit of deletes that stays in level 0.
        List<CanonicalRow> first = new ArrayList<>();
        List<CanonicalRow> medium = new ArrayList<>();
        for (String dt : List.of("2026-12-01", "2026-12-02")) {
            for (int id = 0; id < 1000; id++) {
                first.add(CanonicalRow.of(dt, id, "first-" + id));
                if (id < 150) {
                    medium.add(CanonicalRow.of(dt, id, "medium-" + id));
                }
            }
        }
        paimon.write("default", "dv", first);
        paimon.compactAll("default", "dv", true);
        paimon.write("default", "dv", medium);
        paimon.compactAll("default", "dv", false);
        Random random = new Random(7);
        for (int commit = 0; commit < 4; commit++) {
            paimon.write("default", "dv", small(random, "v" + commit));
            paimon.compactAll("default", "dv", false);
        }
        paimon.writeWith("default", "dv", java.util.Map.of("write-only", "true"), List.of(
                CanonicalRow.ofKind(Kind.DELETE, "2026-12-01", 500, null),
                CanonicalRow.ofKind(Kind.DELETE, "2026-12-02", 501, null)));
        List<String> indexes = same("SELECT index_type, dv_ranges IS NULL, CARDINALITY(dv_ranges) = row_count "
                + "FROM %s.`default`.`dv$table_indexes`");
        assertThat(indexes).as("deletion-vector index files with one range per data file").isNotEmpty()
                .containsOnly("+I[DELETION_VECTORS, false, true]");
        assertThat(same("SELECT DISTINCT `partition` FROM %s.`default`.`dv$table_indexes`"))
                .containsExactly("+I[{2026-12-01}]", "+I[{2026-12-02}]");
        assertThat(same("SELECT r.f0, r._CARDINALITY FROM %s.`default`.`dv$table_indexes` "
                + "CROSS JOIN UNNEST(dv_ranges) AS r (f0, f1, f2, _CARDINALITY)")).as("every vector deletes rows")
                .hasSizeGreaterThan(4).allSatisfy(r -> assertThat(r).startsWith("+I[data-").doesNotEndWith(", 0]"));
        assertThat(sameIndexesAndFiles("dv", 4)).as("files holding retractions").isNotEmpty();
    }

    /** 12 updates and deletes of random keys below 150. */
    private static List<CanonicalRow> small(Random random, String value) {
        List<CanonicalRow> rows = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String dt = random.nextBoolean() ? "2026-12-01" : "2026-12-02";
            boolean delete = random.nextInt(4) == 0;
            rows.add(CanonicalRow.ofKind(delete ? Kind.DELETE : Kind.INSERT, dt, random.nextInt(150), value));
        }
        return rows;
    }

    @Test
    void ofPaimonDynamicBucketTables() throws Exception {
        paimon.createTable("default", "dyn", TableSpec.of("p", "INT", "id", "INT", "v", "STRING")
                .withPartitionKeys("p").withPrimaryKeys("p", "id").withOption("bucket", "-1")
                .withOption("dynamic-bucket.target-row-num", "8"));
        paimon.createTable("default", "flat", TableSpec.of("id", "INT", "v", "STRING")
                .withPrimaryKeys("id").withOption("bucket", "-1").withOption("dynamic-bucket.target-row-num", "8"));
        for (int commit = 1; commit <= 3; commit++) {
            List<CanonicalRow> partitioned = new ArrayList<>();
            List<CanonicalRow> flat = new ArrayList<>();
            for (int id = commit * 5; id < commit * 5 + 12; id++) {
                partitioned.add(CanonicalRow.of(id % 2, id, "v" + commit));
                flat.add(CanonicalRow.of(id, "v" + commit));
            }
            paimon.write("default", "dyn", partitioned);
            paimon.write("default", "flat", flat);
        }
        assertThat(same("SELECT DISTINCT index_type, dv_ranges FROM %s.`default`.`dyn$table_indexes`"))
                .containsExactly("+I[HASH, null]");
        assertThat(same("SELECT `partition`, COUNT(*) > 1 FROM %s.`default`.`dyn$table_indexes` GROUP BY `partition`"))
                .as("several buckets in each partition").containsExactly("+I[{0}, true]", "+I[{1}, true]");
        assertThat(same("SELECT DISTINCT `partition` FROM %s.`default`.`flat$table_indexes`")).containsExactly("+I[{}]");
        sameIndexesAndFiles("dyn", 1);
        sameIndexesAndFiles("flat", 2);
    }
}
