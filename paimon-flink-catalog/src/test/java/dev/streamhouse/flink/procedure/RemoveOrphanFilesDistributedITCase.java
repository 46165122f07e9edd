package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code CALL sys.remove_orphan_files} in distributed mode (the default): a Flink batch job whose
 * subtasks share the partitions and metadata directories of the tables. Every file of the tables is
 * aged beyond {@code older_than}, so only the references protect the live ones.
 */
class RemoveOrphanFilesDistributedITCase extends CatalogITCaseBase {
    private static final long THREE_DAYS = TimeUnit.DAYS.toMillis(3);

    private final List<Path> oldOrphans = new ArrayList<>();
    private final List<Path> freshOrphans = new ArrayList<>();
    private long oldBytes;
    private List<String> rowsOfT;
    private List<String> rowsOfU;

    @BeforeEach
    void tablesWithOrphans() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt)");
        sql("CREATE TABLE u (id INT, v STRING)");
        for (int i = 0; i < 3; i++) {
            sql("INSERT INTO t VALUES (%d, 'a', 'p1'), (%d, 'b', 'p2'), (%d, 'c', 'p3')", i, i + 10, i + 20).await();
        }
        sql("INSERT INTO u VALUES (1, 'x'), (2, 'y')").await();
        rowsOfT = sortedRows("SELECT * FROM t");
        rowsOfU = sortedRows("SELECT * FROM u");
        Path t = warehouse.resolve("default.db/t");
        Path u = warehouse.resolve("default.db/u");
        ageAll(t);
        ageAll(u);
        for (Path p : List.of(t.resolve("dt=p1/bucket-0/data-orphan-1.parquet"),
                t.resolve("dt=p2/bucket-0/data-orphan-2.parquet"), t.resolve("dt=p3/bucket-0/data-orphan-3.parquet"),
                t.resolve("manifest/manifest-orphan-4"), u.resolve("bucket-0/data-orphan-5.parquet"))) {
            Files.writeString(p, "orphan " + p.getFileName());
            Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - THREE_DAYS));
            oldOrphans.add(p);
            oldBytes += Files.size(p);
        }
        // fresh ones: a writer or a commit may still be about to reference them
        for (Path p : List.of(t.resolve("dt=p1/bucket-0/data-fresh-1.parquet"), t.resolve("manifest/manifest-fresh-2"),
                u.resolve("bucket-0/data-fresh-3.parquet"))) {
            Files.writeString(p, "fresh");
            freshOrphans.add(p);
        }
    }

    private static void ageAll(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
                Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - THREE_DAYS));
            }
        }
    }

    private long bytesOf(String table) throws Exception {
        long bytes = 0;
        for (Path p : oldOrphans) {
            if (p.startsWith(warehouse.resolve("default.db/" + table))) {
                bytes += Files.size(p);
            }
        }
        return bytes;
    }

    @Test
    void aParallelJobRemovesOldOrphansOfAPartitionedTableAndKeepsFreshOnes(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        List<JobID> earlier = jobsNamed(cluster, "Remove orphan files of default.t");
        int earlierDry = jobsNamed(cluster, "List orphan files of default.t").size();
        long bytesOfT = bytesOf("t");

        assertThat(rows("CALL sys.remove_orphan_files(`table` => 'default.t', dry_run => true, parallelism => 2)"))
                .containsExactly("+I[4]", "+I[" + bytesOfT + "]");
        assertThat(oldOrphans).allMatch(Files::exists);
        assertThat(jobsNamed(cluster, "List orphan files of default.t")).hasSize(earlierDry + 1);

        assertThat(rows("CALL sys.remove_orphan_files(`table` => 'default.t', parallelism => 2, mode => 'distributed')"))
                .containsExactly("+I[4]", "+I[" + bytesOfT + "]");
        assertThat(oldOrphans.subList(0, 4)).noneMatch(Files::exists);
        assertThat(oldOrphans.get(4)).exists(); // table u was not asked for
        assertThat(freshOrphans).allMatch(Files::exists);
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(rowsOfT);

        List<JobID> jobs = jobsNamed(cluster, "Remove orphan files of default.t");
        jobs.removeAll(earlier);
        assertThat(jobs).hasSize(1);
        AccessExecutionGraph graph = cluster.getArchivedExecutionGraph(jobs.get(0)).get();
        assertThat(graph.getState()).isEqualTo(JobStatus.FINISHED);
        Map<String, Integer> parallelism = new TreeMap<>();
        for (AccessExecutionJobVertex v : graph.getAllVertices().values()) {
            parallelism.put(v.getName(), v.getParallelism());
        }
        assertThat(parallelism).anySatisfy((vertex, p) -> {
            assertThat(vertex).startsWith("Remove orphan files: default.t");
            assertThat(p).isEqualTo(2);
        });

        assertThat(rows("CALL sys.remove_orphan_files(`table` => 'default.t', parallelism => 2)"))
                .containsExactly("+I[0]", "+I[0]");
    }

    @Test
    void aWholeDatabaseIsOneJobOverAllItsTables() throws Exception {
        assertThat(rows("CALL sys.remove_orphan_files(`table` => 'default.*', dry_run => true, parallelism => 2)"))
                .containsExactly("+I[5]", "+I[" + oldBytes + "]");
        assertThat(oldOrphans).allMatch(Files::exists);

        assertThat(rows("CALL sys.remove_orphan_files(`table` => 'default.*', parallelism => 2)"))
                .containsExactly("+I[5]", "+I[" + oldBytes + "]");
        assertThat(oldOrphans).noneMatch(Files::exists);
        assertThat(freshOrphans).allMatch(Files::exists);
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(rowsOfT);
        assertThat(sortedRows("SELECT * FROM u")).isEqualTo(rowsOfU);
    }

    @Test
    void localAndDistributedAgree() throws Exception {
        List<String> dry = rows("CALL sys.remove_orphan_files(`table` => 'default.*', dry_run => true, mode => 'local')");
        assertThat(rows("CALL sys.remove_orphan_files(`table` => 'default.*', dry_run => true)")).isEqualTo(dry)
                .containsExactly("+I[5]", "+I[" + oldBytes + "]");
    }

    private static List<JobID> jobsNamed(MiniCluster cluster, String name) throws Exception {
        List<JobID> out = new ArrayList<>();
        for (JobStatusMessage job : cluster.listJobs().get()) {
            if (job.getJobName().equals(name)) {
                out.add(job.getJobId());
            }
        }
        return out;
    }
}
