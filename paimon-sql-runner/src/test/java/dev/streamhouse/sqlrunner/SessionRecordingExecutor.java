package dev.streamhouse.sqlrunner;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.client.gateway.Executor;
import org.apache.flink.table.client.gateway.StatementResult;

/**
 * An executor for an init script: Flink's client hands each statement it reads to
 * {@link #configureSession}, which records it (and tells {@code onStatement}); nothing is executed.
 */
final class SessionRecordingExecutor implements Executor {
    final List<String> statements = new ArrayList<>();
    private final Consumer<String> onStatement;

    SessionRecordingExecutor(Consumer<String> onStatement) {
        this.onStatement = onStatement;
    }

    @Override
    public void configureSession(String statement) {
        statements.add(statement);
        onStatement.accept(statement);
    }

    @Override
    public ReadableConfig getSessionConfig() {
        return new Configuration();
    }

    @Override
    public Map<String, String> getSessionConfigMap() {
        return Map.of();
    }

    @Override
    public StatementResult executeStatement(String statement) {
        throw new UnsupportedOperationException(statement);
    }

    @Override
    public List<String> completeStatement(String statement, int position) {
        return List.of();
    }

    /** Flink 2.x's Executor only (no {@code @Override}): never called for an init script. */
    public String deployScript(String script, URI uri) {
        throw new UnsupportedOperationException(String.valueOf(uri));
    }

    @Override
    public void close() {}
}
