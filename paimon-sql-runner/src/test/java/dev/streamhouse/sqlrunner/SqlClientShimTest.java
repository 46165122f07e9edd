package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.sqlrunner.compat.SqlClientShim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.flink.table.client.cli.CliClient;
import org.apache.flink.table.client.cli.CliOptionsParser;
import org.apache.flink.table.client.cli.TerminalUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-line handing of scripts to Flink's SQL client: the client runs exactly the text it is
 * given, and a copy of it on disk (Flink 2.x reads scripts from files) is owner-only while it runs and
 * gone afterwards.
 */
class SqlClientShimTest {
    private static final Path SYSTEM_TMP = Path.of(System.getProperty("java.io.tmpdir"));
    private static final String SCRIPT = "SET 'a' = 'x';\nCREATE CATALOG c WITH ('password' = 'secret-ü');\n";

    @TempDir
    Path tmp;

    @Test
    void clientRunsTheGivenTextAndNoCopyOutlivesTheRun() throws Exception {
        Set<Path> before = scriptCopies();
        List<String> copyPermissions = new ArrayList<>();
        SessionRecordingExecutor recording = new SessionRecordingExecutor(statement -> {
            for (Path copy : scriptCopies()) {
                if (!before.contains(copy)) {
                    copyPermissions.add(permissions(copy));
                }
            }
        });
        try (CliClient client = new CliClient(TerminalUtils::createDumbTerminal, recording, tmp.resolve("history"))) {
            assertThat(SqlClientShim.initialize(client, SCRIPT)).isTrue();
        }

        assertThat(recording.statements).containsExactly("SET 'a' = 'x';",
                "CREATE CATALOG c WITH ('password' = 'secret-ü');");
        assertThat(copyPermissions).allMatch("rw-------"::equals);
        assertThat(scriptCopies()).isEqualTo(before);
    }

    @Test
    void readsTheScriptOfDashFAsUtf8() throws Exception {
        Path script = tmp.resolve("script.sql");
        Files.writeString(script, SCRIPT);

        String text = SqlClientShim.read(CliOptionsParser.parseEmbeddedModeClient(
                new String[] {"-f", script.toString()}).getSqlFile());

        assertThat(text).isEqualTo(SCRIPT);
    }

    private static Set<Path> scriptCopies() {
        try (Stream<Path> files = Files.list(SYSTEM_TMP)) {
            return files.filter(f -> f.getFileName().toString().startsWith("flink-sql-script-"))
                    .collect(Collectors.toCollection(HashSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String permissions(Path file) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
        } catch (IOException e) {
            return "gone: " + e;
        }
    }
}
