package dev.streamhouse.sqlrunner;

import dev.streamhouse.sqlrunner.compat.SqlClientShim;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.table.client.SqlClient;
import org.apache.flink.table.client.cli.CliClient;
import org.apache.flink.table.client.cli.CliOptions;
import org.apache.flink.table.client.cli.CliOptionsParser;
import org.jline.terminal.Terminal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The main class of bin/flink-sql: Flink's SQL client ({@link SqlClient}) with four additions.
 * <ul>
 *   <li>A header line in the log for each run: pid, working directory and arguments (values of
 *       sensitive options masked as Flink masks them).</li>
 *   <li>The history file the client will use is made readable by its owner only, created so if it is
 *       missing: it records every statement, secrets in CREATE CATALOG options included.</li>
 *   <li>With {@code -f} (or {@code -u}, Flink 1.20 only), each statement is printed in full before its result
 *       ({@link StatementEcho}); the client's own echo shows statements only up to their last
 *       {@code )}.</li>
 *   <li>In embedded mode (bin/flink-sql's), {@code CREATE TABLE ... AS TABLE} and
 *       {@code CREATE DATABASE ... AS DATABASE} from a {@code mysql} catalog start MySQL syncs
 *       ({@link EmbeddedSqlClient}).</li>
 * </ul>
 * Everything else, the interactive prompt and the options, is the SQL client's.
 *
 * <p>It extends {@link SqlClient} only to reach {@code startClient(args, terminalFactory)}, the
 * client's entry point that takes a terminal (for help, errors in the arguments and gateway mode); it is
 * never instantiated.
 */
public final class FlinkSqlLauncher extends SqlClient {
    private static final Logger LOG = LoggerFactory.getLogger(FlinkSqlLauncher.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private FlinkSqlLauncher() {
        super(false, null, null);
    }

    public static void main(String[] args) {
        LOG.info("===== bin/flink-sql run: pid {}, working directory {}, arguments: {}",
                ProcessHandle.current().pid(), Paths.get("").toAbsolutePath(), String.join(" ", masked(args)));
        CliOptions options = parsedOrNull(args);
        if (options == null || options.isPrintHelp()) {
            // The client prints the error or the help.
            startClient(args, CliClient.DEFAULT_TERMINAL_FACTORY);
            return;
        }
        restrictToOwner(historyFile(options));
        String script = scriptOf(options);
        if (script == null && options.getSqlFile() != null) {
            // The client reports the unreadable file.
            startClient(args, CliClient.DEFAULT_TERMINAL_FACTORY);
            return;
        }
        Supplier<Terminal> terminal = CliClient.DEFAULT_TERMINAL_FACTORY;
        if (script != null) {
            List<String> statements = ScriptStatements.split(script);
            terminal = () -> ScriptTerminal.create(statements);
        }
        if (options instanceof CliOptions.EmbeddedCliOptions embedded) {
            EmbeddedSqlClient.run(embedded, terminal, script);
        } else {
            startClient(args, terminal);
        }
    }

    /** The options as the client will parse them, or null when it will refuse them. */
    private static CliOptions parsedOrNull(String[] args) {
        try {
            if (args.length == 0 || args[0].startsWith("-")) {
                return CliOptionsParser.parseEmbeddedModeClient(args);
            }
            String[] rest = Arrays.copyOfRange(args, 1, args.length);
            switch (args[0]) {
                case SqlClient.MODE_EMBEDDED:
                    return CliOptionsParser.parseEmbeddedModeClient(rest);
                case SqlClient.MODE_GATEWAY:
                    return CliOptionsParser.parseGatewayModeClient(rest);
                default:
                    return null;
            }
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The history file the client uses: {@code -hist}/{@code --history}, else ~/.flink-sql-history. */
    static Path historyFile(CliOptions options) {
        return options.getHistoryFilePath() != null
                ? Paths.get(options.getHistoryFilePath())
                : Paths.get(System.getProperty("user.home"), ".flink-sql-history");
    }

    /** Makes {@code file} rw------- (creating it empty so if missing); warns and goes on when it cannot. */
    static void restrictToOwner(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (FileAlreadyExistsException exists) {
                // set below
            }
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("Cannot make the SQL history file {} readable by its owner only: {}", file, e.toString());
        }
    }

    /** The statements of {@code -f FILE} or (Flink 1.20) {@code -u STATEMENT}, as the client will read them; else null. */
    private static String scriptOf(CliOptions options) {
        try {
            if (options.getSqlFile() != null) {
                return SqlClientShim.read(options.getSqlFile());
            }
        } catch (IOException e) {
            return null; // the client reports it
        }
        String update = SqlClientShim.updateStatement(options);
        return update == null ? null : update.trim();
    }

    /** The arguments with the values of sensitive {@code key=value} options (secrets, passwords) masked. */
    static List<String> masked(String[] args) {
        List<String> masked = new ArrayList<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String key = eq < 0 ? "" : arg.substring(0, eq).replaceFirst("^-D", "");
            masked.add(eq > 0 && GlobalConfiguration.isSensitive(key) ? arg.substring(0, eq + 1) + "******" : arg);
        }
        return masked;
    }
}
