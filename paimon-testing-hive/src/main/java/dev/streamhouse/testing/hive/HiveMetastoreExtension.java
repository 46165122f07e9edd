package dev.streamhouse.testing.hive;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private Apache Hive standalone metastore (4.0.1, thrift) per test class, in a JVM of its own, on a
 * free loopback port, with an embedded Derby database in a fresh temporary directory. Register it as a
 * static {@code @RegisterExtension} field; it starts before the class's first test and stops (and deletes
 * its directory) after the last one.
 *
 * <p>{@link #sharedPerJvm()} is one metastore for every test class of a JVM (started by the first, stopped
 * when the JVM exits), for suites that run many classes against a metastore; it is {@link #reset()} after
 * each test, so the next finds it empty.
 *
 * <p>Managed tables stay managed: the metastore's default transformer, which turns them into external
 * tables, is switched off, as it must be for catalogs that own their tables' files. The lock API works
 * (see {@link MetastoreLauncher}).
 */
public final class HiveMetastoreExtension implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private static HiveMetastoreExtension shared;

    private final boolean perJvm;
    private java.util.function.Supplier<java.util.Map<String, String>> hadoopSettings = java.util.Map::of;
    private Path baseDir;
    private Path log;
    private Process server;
    private int port;

    public HiveMetastoreExtension() {
        this(false);
    }

    private HiveMetastoreExtension(boolean perJvm) {
        this.perJvm = perJvm;
    }

    /**
     * Hadoop settings for the metastore's file systems (its {@code core-site.xml}), asked for when it
     * starts: e.g. the {@code fs.s3a.*} settings of an S3 store whose {@code s3://} locations it checks
     * and creates ({@code s3://} is served by S3A there).
     */
    public HiveMetastoreExtension withHadoopSettings(java.util.function.Supplier<java.util.Map<String, String>> settings) {
        this.hadoopSettings = settings;
        return this;
    }

    /** The metastore every test class of this JVM shares (see the class comment). */
    public static synchronized HiveMetastoreExtension sharedPerJvm() {
        if (shared == null) {
            shared = new HiveMetastoreExtension(true);
        }
        return shared;
    }

    @Override
    public synchronized void beforeAll(ExtensionContext context) throws Exception {
        if (perJvm && server != null && server.isAlive()) {
            return;
        }
        start();
        if (perJvm) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    stop();
                } catch (Exception ignored) {
                    // the JVM is exiting; the temporary directory may stay
                }
            }, "hive-metastore-stop"));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (!perJvm) {
            stop();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (perJvm) {
            reset();
        }
    }

    /**
     * Empties the metastore: drops every database but {@code default} and every table of {@code default},
     * keeping the files (they are the tests' own temporary directories).
     */
    public void reset() throws Exception {
        org.apache.hadoop.conf.Configuration conf = org.apache.hadoop.hive.metastore.conf.MetastoreConf.newMetastoreConf();
        org.apache.hadoop.hive.metastore.conf.MetastoreConf.setVar(conf,
                org.apache.hadoop.hive.metastore.conf.MetastoreConf.ConfVars.THRIFT_URIS, uri());
        try (org.apache.hadoop.hive.metastore.HiveMetaStoreClient client =
                     new org.apache.hadoop.hive.metastore.HiveMetaStoreClient(conf)) {
            for (String database : client.getAllDatabases()) {
                if (database.equals("default")) {
                    for (String table : client.getAllTables(database)) {
                        client.dropTable(database, table, false, true);
                    }
                } else {
                    client.dropDatabase(database, false, true, true);
                }
            }
        }
    }

    /** Starts a metastore on a new, empty Derby database. */
    public void start() throws Exception {
        baseDir = Files.createTempDirectory(Paths.get(System.getProperty("java.io.tmpdir")), "hive-metastore-");
        log = baseDir.resolve("metastore.log");
        port = freeLoopbackPort();
        Path derby = baseDir.resolve("metastore_db");
        Files.createDirectories(baseDir.resolve("warehouse"));
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        // the tests' JIT setting, when Maven's surefire passes one (see the root pom's surefire.jit)
        String testJvmOptions = System.getProperty("streamhouse.test.jvm.opts", "").trim();
        if (!testJvmOptions.isEmpty()) {
            command.addAll(List.of(testJvmOptions.split("\\s+")));
        }
        command.add("-Dlog4j2.configurationFile=" + writeLogConfig());
        command.add("-Dderby.stream.error.file=" + baseDir.resolve("derby.log"));
        command.add("-Dmetastore.thrift.port=" + port);
        command.add("-Djavax.jdo.option.ConnectionURL=jdbc:derby:;databaseName=" + derby + ";create=true");
        command.add("-Djavax.jdo.option.ConnectionDriverName=org.apache.derby.jdbc.EmbeddedDriver");
        command.add("-Ddatanucleus.schema.autoCreateAll=true");
        command.add("-Dmetastore.schema.verification=false");
        command.add("-Dmetastore.warehouse.dir=" + baseDir.resolve("warehouse").toUri());
        command.add("-Dmetastore.metadata.transformer.class=");
        command.add("-cp");
        command.add(writeCoreSite() + java.io.File.pathSeparator + metastoreClasspath());
        command.add(MetastoreLauncher.class.getName());
        command.add(derby.toString());
        command.add("-p");
        command.add(Integer.toString(port));
        server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        awaitPort();
    }

    /** Stops the metastore (SIGTERM) and deletes its directory. */
    public void stop() throws Exception {
        try {
            if (server != null && server.isAlive()) {
                server.destroy();
                if (!server.waitFor(30, TimeUnit.SECONDS)) {
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

    /** The metastore's address, for the catalog option {@code uri}: {@code thrift://127.0.0.1:<port>}. */
    public String uri() {
        return "thrift://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The metastore's log so far (its last lines), for failure messages. */
    public String logTail() {
        return tail(log);
    }

    private void awaitPort() throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("The Hive metastore exited with " + server.exitValue()
                        + " before it listened on port " + port + ":\n" + tail(log));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        server.destroyForcibly();
        throw new IllegalStateException("The Hive metastore did not listen on port " + port + " within "
                + START_TIMEOUT + ":\n" + tail(log));
    }

    /** A directory with the metastore's core-site.xml ({@link #withHadoopSettings}), for its classpath. */
    private Path writeCoreSite() throws IOException {
        Path conf = Files.createDirectories(baseDir.resolve("conf"));
        java.util.Map<String, String> settings = new java.util.TreeMap<>(hadoopSettings.get());
        settings.putIfAbsent("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        settings.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
                .append("</value></property>\n"));
        Files.writeString(conf.resolve("core-site.xml"), xml.append("</configuration>\n").toString(),
                StandardCharsets.UTF_8);
        return conf;
    }

    /** Log4j 2 settings for the metastore's JVM: warnings and errors, to the process output. */
    private Path writeLogConfig() throws IOException {
        Path file = baseDir.resolve("log4j2.properties");
        Files.writeString(file, String.join("\n",
                "appender.out.type=Console",
                "appender.out.name=out",
                "appender.out.layout.type=PatternLayout",
                "appender.out.layout.pattern=%d{HH:mm:ss,SSS} %-5p %c - %m%n",
                "rootLogger.level=WARN",
                "rootLogger.appenderRef.out.ref=out",
                ""), StandardCharsets.UTF_8);
        return file;
    }

    /** This module's classes (the launcher) and the server's jars, written by this module's build. */
    private static String metastoreClasspath() throws Exception {
        String jars;
        try (var in = HiveMetastoreExtension.class.getResourceAsStream("metastore.classpath")) {
            if (in == null) {
                throw new IllegalStateException("metastore.classpath is missing from paimon-testing-hive's jar; "
                        + "rebuild the module with Maven");
            }
            jars = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        String own = Paths.get(MetastoreLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        return own + java.io.File.pathSeparator + jars;
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
