package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.sqlrunner.compat.SqlClientShim;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.client.cli.CliClient;
import org.apache.flink.table.client.cli.TerminalUtils;
import org.apache.flink.table.client.gateway.Executor;
import org.apache.flink.table.client.gateway.StatementResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ScriptStatements must cut a script exactly where Flink's SQL client does. */
class ScriptStatementsTest {
    /** Comments, quotes, multi-line statements, blank lines, CRs, and no ';' after the last statement. */
    private static final String SCRIPT = String.join("\n",
            "-- a comment; with a semicolon",
            "SET 'execution.runtime-mode' = 'batch';",
            "",
            "CREATE TABLE t (",
            "  id INT, -- the key;",
            "  v STRING",
            ") WITH ('connector' = 'blackhole');",
            "SELECT 'a;",
            "b;' AS two_lines, \"col;\" FROM (VALUES (1)) AS v(\"col;\");",
            "/* a block comment;",
            "   over two lines; */ SELECT 1;\r",
            "INSERT INTO t SELECT CAST('abc' AS INT), 'x';",
            "",
            "SELECT 'lone CR'\r AS dropped;",
            "SELECT 2");

    @TempDir
    Path tmp;

    @Test
    void splitsAScriptIntoItsStatements() {
        assertThat(ScriptStatements.split(SCRIPT)).containsExactly(
                "-- a comment; with a semicolon\nSET 'execution.runtime-mode' = 'batch';",
                "\nCREATE TABLE t (\n  id INT, -- the key;\n  v STRING\n) WITH ('connector' = 'blackhole');",
                "SELECT 'a;\nb;' AS two_lines, \"col;\" FROM (VALUES (1)) AS v(\"col;\");",
                "/* a block comment;\n   over two lines; */ SELECT 1;",
                "INSERT INTO t SELECT CAST('abc' AS INT), 'x';",
                "\nSELECT 'lone CR' AS dropped;",
                "SELECT 2;");
    }

    /**
     * Flink's client reads an init script with the same line reader and parser as a -f script, but
     * hands each statement to {@link Executor#configureSession} instead of running it: the
     * statements it reads, recorded there, are the ones ScriptStatements must find.
     */
    @Test
    void agreesWithFlinksClient() throws Exception {
        List<String> read = new ArrayList<>();
        Executor recording = new Executor() {
            @Override
            public void configureSession(String statement) {
                read.add(statement);
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
        };
        try (CliClient client = new CliClient(TerminalUtils::createDumbTerminal, recording, tmp.resolve("history"))) {
            assertThat(SqlClientShim.initialize(client, SCRIPT)).isTrue();
        }

        assertThat(read).hasSize(7);
        assertThat(ScriptStatements.split(SCRIPT)).containsExactlyElementsOf(read);
    }
}
