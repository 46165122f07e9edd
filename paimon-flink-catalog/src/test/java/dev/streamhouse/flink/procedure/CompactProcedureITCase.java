package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionJobVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** {@code CALL sys.compact} through Flink SQL, in Apache Paimon's positional and named forms. */
class CompactProcedureITCase extends CatalogITCaseBase {

    @BeforeEach
    void writeThreeCommits() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                + " WITH ('bucket' = '2')");
        sql("INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'y'), (4, 'd', 'y')").await();
        sql("INSERT INTO t VALUES (1, 'a2', 'x'), (3, 'c2', 'y')").await();
        sql("INSERT INTO t VALUES (2, 'b3', 'x'), (5, 'e', 'y')").await();
    }

    private List<String> tableRows() {
        return sortedRows("SELECT * FROM t");
    }

    /** level of every live file, per partition and bucket, from the $files system table. */
    private List<String> files(String partition) {
        return sortedRows("SELECT `partition`, bucket, level FROM `t$files` WHERE `partition` = '%s'", partition);
    }

    @Test
    void positionalCallCompactsEveryBucketFully() {
        List<String> before = tableRows();
        assertThat(files("{x}")).anyMatch(r -> r.endsWith(", 0]"));

        List<String> result = rows("CALL sys.compact('default.t')");

        assertThat(result).singleElement().asString()
                .contains("Compacted").contains("default.t").contains("snapshot 4");
        assertThat(sortedRows("SELECT commit_kind FROM `t$snapshots` WHERE snapshot_id = 4"))
                .containsExactly("+I[COMPACT]");
        for (String partition : List.of("{x}", "{y}")) {
            // one file per bucket, on the last level
            assertThat(files(partition)).allMatch(r -> r.endsWith(", 5]")).doesNotHaveDuplicates().isNotEmpty();
        }
        assertThat(tableRows()).isEqualTo(before).hasSize(5);

        assertThat(rows("CALL sys.compact('default.t')")).singleElement().asString().startsWith("+I[Nothing to compact");
    }

    @Test
    void namedArgumentsSelectPartitionsAndStrategy() {
        rows("CALL sys.compact(`table` => 'default.t', partitions => 'dt=x', compact_strategy => 'full',"
                + " options => 'sink.parallelism=1')");
        assertThat(files("{x}")).allMatch(r -> r.endsWith(", 5]"));
        assertThat(files("{y}")).anyMatch(r -> r.endsWith(", 0]"));

        rows("CALL paimon.sys.compact(`table` => 't', partitions => 'dt=x;dt=y')");
        assertThat(files("{y}")).allMatch(r -> r.endsWith(", 5]"));
    }

    @Test
    void proceduresAreListedInTheSysDatabase() {
        assertThat(rows("SHOW PROCEDURES FROM sys")).contains("+I[compact]");
    }

    @Test
    void badCallsNameWhatIsWrong() {
        assertThatThrownBy(() -> rows("CALL sys.compact('default.missing')"))
                .hasStackTraceContaining("missing");
        assertThatThrownBy(() -> rows("CALL sys.compact(`table` => 'default.t', order_strategy => 'zorder',"
                + " order_by => 'id')"))
                .hasStackTraceContaining("'order_strategy' (sort compaction) is not supported yet");
        assertThatThrownBy(() -> rows("CALL sys.compact(`table` => 'default.t', compact_strategy => 'most')"))
                .hasStackTraceContaining("compact_strategy").hasStackTraceContaining("expected 'full' or 'minor'");
        assertThatThrownBy(() -> rows("CALL sys.compact(`table` => 'default.t', partitions => 'nope=1')"))
                .hasStackTraceContaining("'nope' is not a partition key");
    }

    @Test
    void appendTablesHaveTheirSmallFilesMerged() throws Exception {
        sql("CREATE TABLE logs (id INT, v STRING) WITH ('bucket' = '-1')");
        for (int i = 0; i < 3; i++) {
            sql("INSERT INTO logs VALUES (%d, 'a'), (%d, 'b')", i * 2, i * 2 + 1).await();
        }
        List<String> before = sortedRows("SELECT * FROM logs");
        assertThat(sortedRows("SELECT file_path FROM `logs$files`")).hasSize(3);

        assertThat(rows("CALL sys.compact(`table` => 'default.logs')")).singleElement().asString()
                .contains("Compacted 1 of 1 buckets");

        assertThat(sortedRows("SELECT record_count FROM `logs$files`")).containsExactly("+I[6]");
        assertThat(sortedRows("SELECT * FROM logs")).isEqualTo(before).hasSize(6);
        assertThat(rows("CALL sys.compact(`table` => 'default.logs', compact_strategy => 'minor')"))
                .singleElement().asString().startsWith("+I[Nothing to compact");
    }
    /** The jobs of the MiniCluster named {@code name}. */
    private static List<JobID> jobsNamed(MiniCluster cluster, String name) throws Exception {
        List<JobID> out = new ArrayList<>();
        for (JobStatusMessage job : cluster.listJobs().get()) {
            if (job.getJobName().equals(name)) {
                out.add(job.getJobId());
            }
        }
        return out;
    }

    @Test
    void theCallRunsAFlinkBatchJobThatCompactsBucketsInParallel(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        List<JobID> earlier = jobsNamed(cluster, "Compact table default.t");
        List<String> before = tableRows();

        assertThat(rows("CALL sys.compact(`table` => 'default.t', options => 'sink.parallelism=2')"))
                .containsExactly("+I[Compacted 3 of 3 buckets of default.t into snapshot 4]");

        List<JobID> jobs = jobsNamed(cluster, "Compact table default.t");
        jobs.removeAll(earlier);
        assertThat(jobs).hasSize(1);
        AccessExecutionGraph graph = cluster.getArchivedExecutionGraph(jobs.get(0)).get();
        assertThat(graph.getState()).isEqualTo(JobStatus.FINISHED);
        Map<String, Integer> parallelism = new TreeMap<>();
        for (AccessExecutionJobVertex v : graph.getAllVertices().values()) {
            parallelism.put(v.getName(), v.getParallelism());
        }
        assertThat(parallelism).hasEntrySatisfying("Compact: default.t", p -> assertThat(p).isEqualTo(2));
        assertThat(files("{x}")).allMatch(r -> r.endsWith(", 5]")).hasSize(1);
        assertThat(files("{y}")).allMatch(r -> r.endsWith(", 5]")).hasSize(2);
        assertThat(tableRows()).isEqualTo(before);
    }

    @Test
    void aFailureInsideTheJobLeavesTheTableAndItsFilesUnchanged() throws Exception {
        Path table = warehouse.resolve("default.db").resolve("t");
        Path bucket = table.resolve("dt=y").resolve("bucket-1");
        List<Path> dataFiles;
        try (Stream<Path> files = Files.list(bucket)) {
            dataFiles = files.filter(f -> f.getFileName().toString().startsWith("data-")).sorted()
                    .collect(Collectors.toList());
        }
        assertThat(dataFiles).isNotEmpty();
        List<String> rowsBefore = tableRows();
        List<String> snapshotsBefore = sortedRows("SELECT snapshot_id FROM `t$snapshots`");
        List<Path> filesBefore = allFiles(table);
        List<byte[]> originals = new ArrayList<>();
        for (Path f : dataFiles) {
            byte[] bytes = Files.readAllBytes(f);
            originals.add(bytes);
            byte[] garbage = new byte[bytes.length];
            Arrays.fill(garbage, (byte) 7);
            Files.write(f, garbage);
        }

        assertThatThrownBy(() -> rows("CALL sys.compact(`table` => 'default.t', options => 'sink.parallelism=2')"))
                .isInstanceOf(Exception.class);

        for (int i = 0; i < dataFiles.size(); i++) {
            Files.write(dataFiles.get(i), originals.get(i));
        }
        assertThat(sortedRows("SELECT snapshot_id FROM `t$snapshots`")).isEqualTo(snapshotsBefore);
        assertThat(allFiles(table)).isEqualTo(filesBefore);
        assertThat(tableRows()).isEqualTo(rowsBefore);
        // and a retry compacts
        assertThat(rows("CALL sys.compact('default.t')")).singleElement().asString().contains("into snapshot 4");
    }

    private static List<Path> allFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).map(dir::relativize).sorted().collect(Collectors.toList());
        }
    }
}
