package dev.streamhouse.flink.cdc.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private MariaDB server per test class: a fresh data directory, a free loopback port, row-based
 * binlog with full row images, and a user {@link #CDC_USER} with the privileges a CDC source needs.
 * Register it as a static {@code @RegisterExtension} field; it starts before the class's first test
 * and stops (and deletes its data directory) after the last one.
 *
 * <p>The server is Debian's {@code mariadb-server} package (10.11 here). Without its binaries the
 * extension fails the class with "install mariadb-server": a CDC test never skips.
 */
public final class MariaDbExtension implements BeforeAllCallback, AfterAllCallback {

    public static final String CDC_USER = "cdc_user";
    public static final String CDC_PASSWORD = "cdc-secret";

    private static final String[] BINARY_DIRS = {"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"};
    private static final long START_TIMEOUT_MILLIS = 120_000;

    private Path baseDir;
    private Process server;
    private Path log;
    private int port;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        stop();
    }

    /** Starts the server; the extension calls it, tests that manage a server themselves may too. */
    public void start() throws Exception {
        Path installDb = binary("mariadb-install-db");
        Path mariadbd = binary("mariadbd");
        baseDir = Files.createTempDirectory(socketSafeTempRoot(), "mariadb-");
        Path dataDir = baseDir.resolve("data");
        // Each server gets its own tmpdir: bootstraps running at once in two test JVMs collide on
        // the temporary tables they create in a shared /tmp ("Unknown table 'mysql.tmp_user_sys'").
        Path tmpDir = Files.createDirectories(baseDir.resolve("tmp"));
        log = baseDir.resolve("server.log");
        boolean root = "root".equals(System.getProperty("user.name"));

        List<String> install = new ArrayList<>(List.of(installDb.toString(), "--no-defaults",
                "--datadir=" + dataDir, "--tmpdir=" + tmpDir, "--auth-root-authentication-method=normal",
                "--skip-test-db"));
        if (root) {
            install.add("--user=root");
        }
        Process installer = new ProcessBuilder(install).redirectErrorStream(true)
                .redirectOutput(baseDir.resolve("install.log").toFile()).start();
        if (!installer.waitFor(START_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS) || installer.exitValue() != 0) {
            installer.destroyForcibly();
            throw new IllegalStateException("mariadb-install-db failed for " + dataDir + ":\n"
                    + head(baseDir.resolve("install.log")));
        }

        port = freeLoopbackPort();
        List<String> command = new ArrayList<>(List.of(mariadbd.toString(), "--no-defaults",
                "--datadir=" + dataDir, "--tmpdir=" + tmpDir, "--socket=" + baseDir.resolve("mysqld.sock"),
                "--pid-file=" + baseDir.resolve("mysqld.pid"), "--port=" + port,
                "--bind-address=127.0.0.1", "--skip-name-resolve", "--log-bin=" + dataDir.resolve("binlog"),
                "--binlog-format=ROW", "--binlog-row-image=FULL", "--server-id=1",
                "--innodb-buffer-pool-size=64M", "--character-set-server=utf8mb4",
                "--collation-server=utf8mb4_general_ci"));
        if (root) {
            command.add("--user=root");
        }
        server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        awaitConnections();
        try (Connection c = rootConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE USER '" + CDC_USER + "'@'%' IDENTIFIED BY '" + CDC_PASSWORD + "'");
            s.execute("GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT, "
                    + "LOCK TABLES ON *.* TO '" + CDC_USER + "'@'%'");
        }
    }

    /** Stops the server (SIGTERM, a clean shutdown) and deletes its data directory. */
    public void stop() throws Exception {
        try {
            if (server != null && server.isAlive()) {
                server.destroy();
                if (!server.waitFor(60, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor();
                }
            }
        } finally {
            server = null;
            if (baseDir != null) {
                deleteRecursively(baseDir);
                baseDir = null;
            }
        }
    }

    /** The server's directory (data, socket, log) while it runs; null once stopped. */
    public Path directory() {
        return baseDir;
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    /** A JDBC URL for {@code database} (or the server, when null). */
    public String jdbcUrl(String database) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + (database == null ? "" : database);
    }

    /** A connection as root (all privileges, no password): for the tests' DDL and DML. */
    public Connection rootConnection() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(null), "root", "");
    }

    /** Runs statements as root, in order. */
    public void execute(String... statements) {
        try (Connection c = rootConnection(); Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot run " + String.join("; ", statements) + ": " + e.getMessage(), e);
        }
    }

    private void awaitConnections() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("mariadbd exited with " + server.exitValue()
                        + " before accepting connections on port " + port + ":\n" + tail(log));
            }
            try (Connection ignored = rootConnection()) {
                return;
            } catch (SQLException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        server.destroyForcibly();
        throw new IllegalStateException("mariadbd did not accept connections on port " + port
                + " within " + START_TIMEOUT_MILLIS + " ms (" + last + "):\n" + tail(log));
    }

    private static Path binary(String name) {
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.isEmpty()) {
                    dirs.add(Paths.get(dir));
                }
            }
        }
        for (String dir : BINARY_DIRS) {
            dirs.add(Paths.get(dir));
        }
        for (Path dir : dirs) {
            Path candidate = dir.resolve(name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("Cannot start MariaDB for the CDC tests: '" + name
                + "' is not on PATH nor in " + String.join(", ", BINARY_DIRS)
                + "; install mariadb-server (apt-get install -y mariadb-server)");
    }

    /** A unix socket path must stay under ~107 bytes; deep build directories fall back to /tmp. */
    private static Path socketSafeTempRoot() throws IOException {
        Path tmp = Paths.get(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        if (tmp.toString().length() > 60) {
            tmp = Paths.get("/tmp");
        }
        Files.createDirectories(tmp);
        return tmp;
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The start of the installer's log: its cause comes first, its boilerplate advice after. */
    private static String head(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(0, Math.min(lines.size(), 12)));
        } catch (IOException e) {
            return "(no log at " + file + ": " + e.getMessage() + ")";
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log at " + file + ": " + e.getMessage() + ")";
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete MariaDB data directory " + dir, e);
        }
    }
}
