package dev.streamhouse.sqlrunner;

import dev.streamhouse.flink.cdc.sql.SyncStatement;
import dev.streamhouse.flink.cdc.sql.SyncStatementParser;
import dev.streamhouse.flink.cdc.sql.SyncStatementPlanner;
import dev.streamhouse.flink.cdc.sync.SyncJob;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.config.TableConfigOptions;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.client.gateway.Executor;
import org.apache.flink.table.client.gateway.SqlExecutionException;
import org.apache.flink.table.client.gateway.StatementResult;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.util.CloseableIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The SQL client's executor with the two statements Flink's parser lacks:
 * {@code CREATE TABLE ... AS TABLE} and {@code CREATE DATABASE ... AS DATABASE} from a {@code mysql}
 * catalog ({@link SyncStatementParser}). It runs them itself, resolved against the session's catalogs
 * ({@link SyncStatementPlanner}), by submitting the sync job with the session's configuration (target,
 * parallelism, checkpointing: every 3 minutes unless the session sets an interval) and returns at
 * once, as a detached INSERT does: the client prints the job id. Every other statement goes to the
 * session unchanged.
 *
 * <p>A statement that fails shows one message naming what to fix (the planner's), never a stack
 * trace; the details go to the log. Jobs that run on this JVM's MiniClusters are kept in
 * {@link SyncJobs}.
 */
final class SyncStatementExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SyncStatementExecutor.class);
    /** Targets whose jobs run in this JVM (conf/local/config.yaml uses the first). */
    private static final Set<String> EMBEDDED_TARGETS = Set.of(LocalPerJobExecutorFactory.NAME, "local");

    private final Executor session;
    private final SyncJobs jobs;
    /**
     * Set by a sync statement until the next statement: the client then prints its result as a
     * detached job's (the job id), whatever {@code table.dml-sync} says.
     */
    private volatile boolean detachedResult;

    SyncStatementExecutor(Executor session, SyncJobs jobs) {
        this.session = session;
        this.jobs = jobs;
    }

    @Override
    public StatementResult executeStatement(String statement) {
        detachedResult = false;
        Optional<SyncStatement> sync = parse(statement);
        if (sync.isEmpty()) {
            return session.executeStatement(statement);
        }
        JobClient job = submit(sync.get());
        detachedResult = true;
        RowData row = GenericRowData.of(StringData.fromString(job.getJobID().toString()));
        return new StatementResult(ResolvedSchema.of(Column.physical("job id", DataTypes.STRING())),
                CloseableIterator.adapterForIterator(List.of(row).iterator()), false, ResultKind.SUCCESS_WITH_CONTENT,
                job.getJobID());
    }

    @Override
    public void configureSession(String statement) {
        if (parse(statement).isPresent()) {
            executeStatement(statement);
        } else {
            session.configureSession(statement);
        }
    }

    private static Optional<SyncStatement> parse(String statement) {
        try {
            return SyncStatementParser.parse(statement);
        } catch (IllegalArgumentException e) {
            throw new SqlExecutionException(e.getMessage());
        }
    }

    private JobClient submit(SyncStatement statement) {
        Map<String, String> sessionConfig = session.getSessionConfigMap();
        Configuration configuration = Configuration.fromMap(sessionConfig);
        try {
            SyncJob job = new SyncStatementPlanner(new GatewaySessionCatalogs(session))
                    .plan(statement, configuration.get(ExecutionOptions.RUNTIME_MODE).name());
            Configuration jobConfiguration = job.configuration(sessionConfig);
            StreamExecutionEnvironment env = new StreamExecutionEnvironment(jobConfiguration,
                    Thread.currentThread().getContextClassLoader());
            job.addTo(env);
            JobClient client = env.executeAsync(job.name());
            LOG.info("Submitted {} ({}) as job {}", job.name(), statement.kind(), client.getJobID());
            if (EMBEDDED_TARGETS.contains(jobConfiguration.get(DeploymentOptions.TARGET))) {
                jobs.add(job.name(), client, jobConfiguration.get(CheckpointingOptions.SAVEPOINT_DIRECTORY));
            }
            return client;
        } catch (SqlExecutionException e) {
            throw e;
        } catch (Exception e) {
            LOG.info("Cannot run {}", statement.kind(), e);
            throw new SqlExecutionException(e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    @Override
    public ReadableConfig getSessionConfig() {
        ReadableConfig config = session.getSessionConfig();
        if (!detachedResult) {
            return config;
        }
        Configuration detached = Configuration.fromMap(session.getSessionConfigMap());
        detached.set(TableConfigOptions.TABLE_DML_SYNC, false);
        return detached;
    }

    @Override
    public Map<String, String> getSessionConfigMap() {
        return session.getSessionConfigMap();
    }

    @Override
    public List<String> completeStatement(String statement, int position) {
        return session.completeStatement(statement, position);
    }

    /**
     * Flink 2's SQL client calls this only in application mode (an {@code execution.target} ending in
     * {@code -application}), which bin/flink-sql does not offer: it is refused. No {@code @Override}: Flink
     * 1.20's Executor has no such method, so the class compiles on both lines.
     */
    public String deployScript(String script, URI uri) {
        throw refuseDeployScript(uri);
    }

    static UnsupportedOperationException refuseDeployScript(URI uri) {
        return new UnsupportedOperationException("Cannot deploy the SQL script " + (uri == null ? "given inline" : uri)
                + " in application mode: bin/flink-sql runs scripts in this JVM or on a session cluster; set"
                + " 'execution.target' to '" + LocalPerJobExecutorFactory.NAME + "', 'local' or 'remote'");
    }

    @Override
    public void close() {
        session.close();
    }
}
