package dev.streamhouse.bench;

import java.io.IOException;
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

/**
 * A private MariaDB server for the {@code cdc-snapshot} workload, started as the CDC tests' {@code
 * MariaDbExtension} starts one (a small copy, without JUnit): a fresh data directory, a free
 * loopback port, row binlog with full images, a user {@link #USER} with replication privileges.
 * Needs Debian's {@code mariadb-server} ({@code mariadb-install-db} and {@code mariadbd}).
 */
final class MariaDbProcess implements AutoCloseable {

    static final String USER = "cdc_bench";
    static final String PASSWORD = "cdc-bench";
    private static final String[] BINARY_DIRS = {"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"};
    private static final long START_TIMEOUT_MILLIS = 120_000;

    private final Path baseDir;
    private final Process server;
    private final int port;

    private MariaDbProcess(Path baseDir, Process server, int port) {
        this.baseDir = baseDir;
        this.server = server;
        this.port = port;
    }

    /** Starts a server with an InnoDB buffer pool of {@code bufferPoolMb} MB. */
    static MariaDbProcess start(int bufferPoolMb) throws Exception {
        Path installDb = binary("mariadb-install-db");
        Path mariadbd = binary("mariadbd");
        Path base = Files.createTempDirectory(Paths.get("/tmp"), "bench-mariadb-");
        Path data = base.resolve("data");
        Path tmp = Files.createDirectories(base.resolve("tmp")); // own tmpdir: concurrent bootstraps collide in /tmp
        boolean root = "root".equals(System.getProperty("user.name"));
        List<String> install = new ArrayList<>(List.of(installDb.toString(), "--no-defaults", "--datadir=" + data,
                "--tmpdir=" + tmp, "--auth-root-authentication-method=normal", "--skip-test-db"));
        if (root) {
            install.add("--user=root");
        }
        Process installer = new ProcessBuilder(install).redirectErrorStream(true)
                .redirectOutput(base.resolve("install.log").toFile()).start();
        if (!installer.waitFor(START_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS) || installer.exitValue() != 0) {
            installer.destroyForcibly();
            throw new IllegalStateException("mariadb-install-db failed: " + tail(base.resolve("install.log")));
        }
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(mariadbd.toString(), "--no-defaults", "--datadir=" + data,
                "--tmpdir=" + tmp, "--socket=" + base.resolve("mysqld.sock"), "--pid-file=" + base.resolve("mysqld.pid"),
                "--port=" + port, "--bind-address=127.0.0.1", "--skip-name-resolve",
                "--log-bin=" + data.resolve("binlog"), "--binlog-format=ROW", "--binlog-row-image=FULL",
                "--server-id=1", "--innodb-buffer-pool-size=" + bufferPoolMb + "M",
                "--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci"));
        if (root) {
            command.add("--user=root");
        }
        Process server = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(base.resolve("server.log").toFile()).start();
        MariaDbProcess process = new MariaDbProcess(base, server, port);
        process.awaitConnections();
        process.execute("CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '" + USER
                        + "'@'%'");
        return process;
    }

    int port() {
        return port;
    }

    Connection rootConnection() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/", "root", "");
    }

    void execute(String... statements) throws SQLException {
        try (Connection c = rootConnection(); Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    private void awaitConnections() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("mariadbd exited: " + tail(baseDir.resolve("server.log")));
            }
            try (Connection ignored = rootConnection()) {
                return;
            } catch (SQLException e) {
                Thread.sleep(100);
            }
        }
        String log = tail(baseDir.resolve("server.log"));
        close();
        throw new IllegalStateException("mariadbd did not accept connections on port " + port + ": " + log);
    }

    @Override
    public void close() throws Exception {
        try {
            if (server.isAlive()) {
                server.destroy();
                if (!server.waitFor(60, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor();
                }
            }
        } finally {
            try (Stream<Path> paths = Files.walk(baseDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
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
            if (Files.isExecutable(dir.resolve(name))) {
                return dir.resolve(name);
            }
        }
        throw new IllegalStateException("Cannot run workload cdc-snapshot: '" + name + "' is not on PATH nor in "
                + String.join(", ", BINARY_DIRS) + "; install mariadb-server (apt-get install -y mariadb-server)");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
