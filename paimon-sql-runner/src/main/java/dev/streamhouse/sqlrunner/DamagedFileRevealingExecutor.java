package dev.streamhouse.sqlrunner;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.client.gateway.Executor;
import org.apache.flink.table.client.gateway.StatementResult;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.CloseableIterator;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The session's executor, with one change: a statement that fails on a damaged file, when it is
 * executed or while its result is fetched, fails with the error that names the file
 * ({@link DamagedFileErrors}); every other failure passes unchanged.
 */
final class DamagedFileRevealingExecutor implements Executor {
    private final Executor session;

    DamagedFileRevealingExecutor(Executor session) {
        this.session = session;
    }

    @Override
    public StatementResult executeStatement(String statement) {
        StatementResult result;
        try {
            result = session.executeStatement(statement);
        } catch (RuntimeException e) {
            throw DamagedFileErrors.reveal(e);
        }
        return new StatementResult(result.getResultSchema(), new Revealing(result), result.isQueryResult(),
                result.getResultKind(), result.getJobId(), result.getRowDataToStringConverter());
    }

    @Override
    public void configureSession(String statement) {
        try {
            session.configureSession(statement);
        } catch (RuntimeException e) {
            throw DamagedFileErrors.reveal(e);
        }
    }

    @Override
    public ReadableConfig getSessionConfig() {
        return session.getSessionConfig();
    }

    @Override
    public Map<String, String> getSessionConfigMap() {
        return session.getSessionConfigMap();
    }

    @Override
    public List<String> completeStatement(String statement, int position) {
        return session.completeStatement(statement, position);
    }

    /** Refused, as {@link SyncStatementExecutor#deployScript}; no {@code @Override} (Flink 2.x only). */
    public String deployScript(String script, URI uri) {
        throw SyncStatementExecutor.refuseDeployScript(uri);
    }

    @Override
    public void close() {
        session.close();
    }

    /** The rows of a result, failures revealed. */
    private static final class Revealing implements CloseableIterator<RowData> {
        private final StatementResult rows;

        Revealing(StatementResult rows) {
            this.rows = rows;
        }

        @Override
        public boolean hasNext() {
            try {
                return rows.hasNext();
            } catch (RuntimeException e) {
                throw DamagedFileErrors.reveal(e);
            }
        }

        @Override
        public RowData next() {
            try {
                return rows.next();
            } catch (RuntimeException e) {
                throw DamagedFileErrors.reveal(e);
            }
        }

        @Override
        public void close() {
            rows.close();
        }
    }
}
