package dev.streamhouse.sqlrunner.compat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.apache.flink.table.client.cli.CliClient;
import org.apache.flink.table.client.cli.CliOptions;

/**
 * Flink 1.20's SQL client: its options name files by URL, its {@link CliClient} takes the text of a
 * script, and {@code -u STATEMENT} (deprecated) runs one statement.
 */
public final class SqlClientShim {
    private SqlClientShim() {}

    /** The text of the script at {@code file} (from {@code -f} or {@code -i}), as UTF-8. */
    public static String read(URL file) throws IOException {
        try (InputStream in = file.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The statement of {@code -u}, or null without it. */
    public static String updateStatement(CliOptions options) {
        return options.getUpdateStatement();
    }

    /** Runs {@code script} as the client's init script; false when a statement of it failed. */
    public static boolean initialize(CliClient cli, String script) {
        return cli.executeInitialization(script);
    }

    /** Runs {@code script} as the client runs {@code -f}'s file. */
    public static void runScript(CliClient cli, String script) {
        cli.executeInNonInteractiveMode(script);
    }
}
