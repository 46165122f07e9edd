package dev.streamhouse.bench;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One Flink SQL session on a local MiniCluster (parallelism 2) with the catalog {@code bench} of
 * type {@code paimon} on the benchmark's warehouse. Which implementation answers to {@code paimon}
 * is decided by the classpath alone; {@link #catalogClass()} says which one did.
 */
final class SqlSession {
    static final int PARALLELISM = 2;

    private final StreamExecutionEnvironment env;
    private final StreamTableEnvironment tEnv;

    private SqlSession(StreamExecutionEnvironment env, StreamTableEnvironment tEnv) {
        this.env = env;
        this.tEnv = tEnv;
    }

    static SqlSession batch(String warehouseUri) {
        return open(warehouseUri, false, null, 0, Map.of());
    }

    /**
     * A streaming session checkpointing every {@code checkpointMillis} into {@code checkpointUri}
     * (a file system directory: state such as a streaming read's normalize step outgrows the
     * JobManager's 5 MB in-memory limit within seconds).
     */
    static SqlSession streaming(String warehouseUri, String checkpointUri, long checkpointMillis) {
        return streaming(warehouseUri, checkpointUri, checkpointMillis, Map.of());
    }

    /** {@link #streaming(String, String, long)} with more Flink configuration ({@code rest.bind-port}, ...). */
    static SqlSession streaming(String warehouseUri, String checkpointUri, long checkpointMillis,
            Map<String, String> settings) {
        return open(warehouseUri, true, checkpointUri, checkpointMillis, settings);
    }

    /**
     * A streaming session without checkpoints, with Flink's {@code io.tmp.dirs} set to {@code
     * tmpDir}: the MiniCluster's option and the jobs' parameter of that name (which functions read
     * through {@code FunctionContext#getJobParameter}; the planner does not copy options there).
     */
    static SqlSession streamingWithTmpDir(String warehouseUri, String tmpDir) {
        return open(
                warehouseUri,
                true,
                null,
                0,
                Map.of(
                        "io.tmp.dirs", tmpDir,
                        "pipeline.global-job-parameters",
                                "io.tmp.dirs:'" + tmpDir.replace("'", "''") + "'"));
    }

    private static SqlSession open(
            String warehouseUri,
            boolean streaming,
            String checkpointUri,
            long checkpointMillis,
            Map<String, String> settings) {
        Configuration conf = new Configuration();
        conf.setString("rest.bind-port", "0");
        settings.forEach(conf::setString);
        conf.setString("parallelism.default", Integer.toString(PARALLELISM));
        // A benchmark run that fails is reported as failed, not retried.
        conf.setString("restart-strategy.type", "none");
        conf.setString("execution.runtime-mode", streaming ? "streaming" : "batch");
        if (checkpointUri != null) {
            conf.setString("state.backend.type", "hashmap");
            conf.setString("execution.checkpointing.dir", checkpointUri);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        if (streaming && checkpointMillis > 0) {
            env.enableCheckpointing(checkpointMillis);
        }
        EnvironmentSettings environment =
                (streaming
                                ? EnvironmentSettings.newInstance().inStreamingMode()
                                : EnvironmentSettings.newInstance().inBatchMode())
                        .withConfiguration(conf)
                        .build();
        SqlSession session = new SqlSession(env, StreamTableEnvironment.create(env, environment));
        session.execute(
                "CREATE CATALOG bench WITH ('type' = 'paimon', 'warehouse' = '"
                        + warehouseUri.replace("'", "''")
                        + "')");
        session.execute("CREATE DATABASE IF NOT EXISTS bench.db");
        return session;
    }

    /** The class of the catalog Flink created for {@code 'type' = 'paimon'}. */
    String catalogClass() {
        return tEnv.getCatalog("bench").map(Catalog::getClass).map(Class::getName).orElse("none");
    }

    boolean tableExists(String table) {
        Catalog catalog =
                tEnv.getCatalog("bench")
                        .orElseThrow(() -> new IllegalStateException("catalog bench is gone"));
        return catalog.tableExists(new ObjectPath("db", table));
    }

    void createFunction(String name, Class<? extends org.apache.flink.table.functions.UserDefinedFunction> function) {
        tEnv.createTemporarySystemFunction(name, function);
    }

    /** Registers the stream {@code rows} builds on this session's environment as temporary view {@code name}. */
    void createTemporaryView(String name, Function<StreamExecutionEnvironment, DataStream<Row>> rows) {
        tEnv.createTemporaryView(name, tEnv.fromDataStream(rows.apply(env)));
    }

    /** Sets a table configuration option for the statements that follow (what the SQL client's SET does). */
    void set(String key, String value) {
        tEnv.getConfig().set(key, value);
    }

    /** Flink's EXPLAIN of a query. */
    String explain(String query) {
        return tEnv.explainSql(query);
    }

    TableResult execute(String sql) {
        return tEnv.executeSql(sql);
    }

    /** Runs a statement and waits until its job (if any) has finished. */
    void executeAndWait(String sql) throws Exception {
        tEnv.executeSql(sql).await();
    }

    List<Row> query(String sql) throws Exception {
        return timedQuery(sql).rows;
    }

    /**
     * A query's rows and its job's net runtime as Flink reports it ({@code
     * JobExecutionResult#getNetRuntime}: scheduling, deployment and the job's work, without planning
     * and the MiniCluster's start), or -1 when the statement ran no job.
     */
    Timed timedQuery(String sql) throws Exception {
        List<Row> rows = new ArrayList<>();
        TableResult result = tEnv.executeSql(sql);
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(rows::add);
        }
        long netMillis = result.getJobClient().isPresent()
                ? result.getJobClient().get().getJobExecutionResult().get().getNetRuntime()
                : -1;
        return new Timed(rows, netMillis);
    }

    /** Rows of a query and its job's net runtime in milliseconds. */
    static final class Timed {
        final List<Row> rows;
        final long jobMillis;

        Timed(List<Row> rows, long jobMillis) {
            this.rows = rows;
            this.jobMillis = jobMillis;
        }
    }
}
