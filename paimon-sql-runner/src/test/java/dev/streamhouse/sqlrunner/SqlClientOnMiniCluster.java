package dev.streamhouse.sqlrunner;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A MiniCluster of the test with its REST endpoint on loopback, and bin/flink-sql sending its jobs
 * there ({@code -D execution.target=remote}), so that a test can watch, fail and restart what the
 * client submitted while the client itself runs as a user runs it.
 */
public final class SqlClientOnMiniCluster implements AutoCloseable {
    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();

    private final MiniCluster cluster;

    private SqlClientOnMiniCluster(MiniCluster cluster) {
        this.cluster = cluster;
    }

    /** Starts a cluster of one TaskManager with {@code slots} slots. */
    public static SqlClientOnMiniCluster start(int slots) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(slots).build());
        cluster.start();
        return new SqlClientOnMiniCluster(cluster);
    }

    public MiniCluster cluster() {
        return cluster;
    }

    /**
     * Runs {@code bin/flink-sql -f script} to its end against this cluster, with its history and log in
     * {@code workDir}, and {@code WAREHOUSE} (the default catalog's) when not null.
     */
    public ProcessRun runScript(Path script, Path workDir, Path warehouse, Duration timeout) throws Exception {
        URI rest = cluster.getRestAddress().get();
        List<String> command = List.of("bash", ROOT.resolve("bin/flink-sql").toString(),
                "-hist", workDir.resolve("history").toString(),
                "-D", "execution.target=remote", "-D", "rest.address=" + rest.getHost(),
                "-D", "rest.port=" + rest.getPort(), "-f", script.toString());
        return ProcessRun.run(command, workDir, workDir.resolve("output.txt"), timeout,
                (Map<String, String> env) -> {
                    env.put("FLINK_SQL_SKIP_BUILD", "1");
                    env.put("FLINK_SQL_LOG", workDir.resolve("flink-sql.log").toString());
                    if (warehouse != null) {
                        env.put("WAREHOUSE", warehouse.toString());
                    }
                    env.put("JAVA_HOME", System.getProperty("java.home"));
                    env.remove("FLINK_CONF_DIR");
                    env.remove("FLINK_SQL_JAVA_OPTS");
                });
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
