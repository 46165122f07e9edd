package dev.streamhouse.sqlrunner.compat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Predicate;
import org.apache.flink.table.client.SqlClientException;
import org.apache.flink.table.client.cli.CliClient;
import org.apache.flink.table.client.cli.CliOptions;

/**
 * Flink 2.x's SQL client: its options name files by URI, its {@link CliClient} reads a script from a
 * file itself (so the text given here goes to a temporary file, owner-only since statements may hold
 * secrets, deleted after the run), and there is no {@code -u}.
 */
public final class SqlClientShim {
    private SqlClientShim() {}

    /** The text of the script at {@code file} (from {@code -f} or {@code -i}), read as the client reads it. */
    public static String read(URI file) throws IOException {
        try {
            return CliClient.readFile(file);
        } catch (SqlClientException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Always null: Flink 2.x's SQL client has no {@code -u}. */
    public static String updateStatement(CliOptions options) {
        return null;
    }

    /** Runs {@code script} as the client's init script; false when a statement of it failed. */
    public static boolean initialize(CliClient cli, String script) throws IOException {
        return withFile(script, cli::executeInitialization);
    }

    /** Runs {@code script} as the client runs {@code -f}'s file. */
    public static void runScript(CliClient cli, String script) throws IOException {
        withFile(script, uri -> {
            cli.executeInNonInteractiveMode(uri);
            return true;
        });
    }

    private static boolean withFile(String script, Predicate<URI> run) throws IOException {
        Path file = Files.createTempFile("flink-sql-script-", ".sql",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(file, script);
            return run.test(file.toUri());
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
