package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.sqlrunner.compat.SqlClientShim;

import java.nio.file.Path;

import org.apache.flink.table.client.cli.CliClient;
import org.apache.flink.table.client.cli.TerminalUtils;
import org.apache.flink.table.client.gateway.Executor;
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
        SessionRecordingExecutor recording = new SessionRecordingExecutor(statement -> {});
        try (CliClient client = new CliClient(TerminalUtils::createDumbTerminal, recording, tmp.resolve("history"))) {
            assertThat(SqlClientShim.initialize(client, SCRIPT)).isTrue();
        }

        assertThat(recording.statements).hasSize(7);
        assertThat(ScriptStatements.split(SCRIPT)).containsExactlyElementsOf(recording.statements);
    }
}
