package dev.streamhouse.sqlrunner;

import static org.awaitility.Awaitility.await;

import dev.streamhouse.sqlrunner.compat.JobManagerMemory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

/**
 * A Flink 1.20 standalone session cluster of separate JVMs, started the way flink-dist's
 * {@code jobmanager.sh} and {@code taskmanager.sh} start one: a JobManager and one TaskManager whose
 * classpath is only {@code lib} (Flink's jars from Maven, as a distribution's lib/ has them, plus what
 * a test puts next to them), a {@code config.yaml} in its own conf directory, everything bound to
 * loopback on free ports, temporary files and logs under {@code dir}. {@link #flink(Path, String...)}
 * runs Flink's CLI ({@code bin/flink}'s {@code CliFrontend}) against it, {@link #sqlClient} Flink's SQL
 * client. {@link #close()} stops the
 * JVMs (SIGTERM, then SIGKILL) by their process handles.
 */
final class StandaloneFlinkCluster implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final Pattern SLOTS_TOTAL = Pattern.compile("\"slots-total\"\\s*:\\s*(\\d+)");

    private final Path dir;
    private final Path conf;
    private final String classpath;
    private final String opens;
    private final int restPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Process> processes = new ArrayList<>();

    private StandaloneFlinkCluster(Path dir, List<Path> lib, String opens) throws IOException {
        this.dir = dir;
        this.conf = dir.resolve("conf");
        this.classpath = lib.stream().map(Path::toString).collect(Collectors.joining(":"));
        this.opens = opens;
        this.restPort = freePort();
        Files.createDirectories(conf);
        Files.createDirectories(dir.resolve("tmp"));
        Files.createDirectories(dir.resolve("log"));
    }

    /**
     * Starts the cluster and returns once its TaskManager's slots are registered.
     *
     * @param settings extra config.yaml entries (flat keys)
     */
    static StandaloneFlinkCluster start(Path dir, List<Path> lib, String opens, Map<String, String> settings)
            throws Exception {
        for (Path jar : lib) {
            if (!Files.exists(jar)) {
                throw new IllegalStateException("Cannot start a Flink cluster: " + jar + " (lib) does not exist");
            }
        }
        StandaloneFlinkCluster cluster = new StandaloneFlinkCluster(dir, lib, opens);
        try {
            cluster.writeConfiguration(settings);
            cluster.launch();
            cluster.awaitSlots();
            return cluster;
        } catch (Throwable e) {
            cluster.close();
            throw e;
        }
    }

    private void writeConfiguration(Map<String, String> settings) throws IOException {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("jobmanager.rpc.address", "localhost");
        c.put("jobmanager.rpc.port", Integer.toString(freePort()));
        c.put("jobmanager.bind-host", "localhost");
        c.put("jobmanager.memory.process.size", "768m");
        c.put("taskmanager.bind-host", "localhost");
        c.put("taskmanager.host", "localhost");
        c.put("taskmanager.numberOfTaskSlots", "2");
        c.put("taskmanager.memory.process.size", "1280m");
        c.put("taskmanager.memory.managed.fraction", "0.1");
        c.put("rest.address", "localhost");
        c.put("rest.bind-address", "localhost");
        c.put("rest.port", Integer.toString(restPort));
        c.put("blob.server.port", "0");
        c.put("io.tmp.dirs", dir.resolve("tmp").toString());
        c.put("heartbeat.interval", "1000");
        c.put("heartbeat.timeout", "5000");
        c.put("state.backend.type", "hashmap");
        c.put("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
        c.put("parallelism.default", "1");
        c.putAll(settings);
        StringBuilder yaml = new StringBuilder();
        c.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml.toString());
        Files.writeString(conf.resolve("log4j.properties"), String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.file.ref = LogFile",
                "appender.file.name = LogFile",
                "appender.file.type = File",
                "appender.file.fileName = ${sys:log.file}",
                "appender.file.layout.type = PatternLayout",
                "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n", ""));
        // The CLI logs errors to the console, into the output the test reads (its warnings are about
        // the missing YARN, plugins and Hadoop set-up).
        Files.writeString(conf.resolve("log4j-cli.properties"), String.join("\n",
                "rootLogger.level = ERROR",
                "rootLogger.appenderRef.console.ref = Console",
                "appender.console.name = Console",
                "appender.console.type = Console",
                "appender.console.layout.type = PatternLayout",
                "appender.console.layout.pattern = %p %c{1}: %m%n", ""));
    }

    /**
     * The JVM flags and -D settings jobmanager.sh/taskmanager.sh compute from config.yaml (with
     * BashJavaUtils), computed here from the same file.
     */
    private void launch() throws IOException {
        Configuration flinkConf = GlobalConfiguration.loadConfiguration(conf.toString());
        JobManagerProcessSpec jm = JobManagerMemory.processSpec(flinkConf);
        List<String> jobManager = new ArrayList<>(jvm("jobmanager",
                JobManagerProcessUtils.generateJvmParametersStr(jm, flinkConf)));
        jobManager.addAll(List.of("org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                "--configDir", conf.toString(), "--executionMode", "cluster"));
        jobManager.addAll(split(JobManagerProcessUtils.generateDynamicConfigsStr(jm)));
        processes.add(start(jobManager, "jobmanager.out"));

        TaskExecutorProcessSpec tm = TaskExecutorProcessUtils.processSpecFromConfig(flinkConf);
        List<String> taskManager = new ArrayList<>(jvm("taskmanager", ProcessMemoryUtils.generateJvmParametersStr(tm)));
        taskManager.addAll(List.of("org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                "--configDir", conf.toString()));
        taskManager.addAll(split(TaskExecutorProcessUtils.generateDynamicConfigsStr(tm)));
        taskManager.addAll(List.of("-D", "taskmanager.resource-id=tm-1"));
        processes.add(start(taskManager, "taskmanager.out"));
    }

    private List<String> jvm(String role, String memoryFlags) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(split(memoryFlags));
        command.addAll(ProcessRun.childJvmOptions());
        command.addAll(split(opens));
        command.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
        command.add("-Dlog.file=" + dir.resolve("log").resolve(role + ".log"));
        command.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j.properties"));
        command.add("-cp");
        command.add(classpath);
        return command;
    }

    private Process start(List<String> command, String out) throws IOException {
        return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(dir.resolve("log").resolve(out).toFile()).start();
    }

    private void awaitSlots() {
        await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    for (Process p : processes) {
                        if (!p.isAlive()) {
                            throw new IllegalStateException("A Flink cluster JVM exited with " + p.exitValue()
                                    + " while starting; logs in " + dir.resolve("log") + ":\n" + logs());
                        }
                    }
                    Matcher m = SLOTS_TOTAL.matcher(get("/overview"));
                    return m.find() && Integer.parseInt(m.group(1)) > 0;
                });
    }

    /**
     * Runs Flink's CLI ({@code flink <args>}) with this cluster's conf directory and lib, as
     * {@code bin/flink} does; its output (with the CLI's warnings and errors) goes to {@code output}.
     */
    ProcessRun flink(Path output, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(split(opens));
        command.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
        command.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j-cli.properties"));
        command.add("-cp");
        command.add(classpath);
        command.add("org.apache.flink.client.cli.CliFrontend");
        command.addAll(Arrays.asList(args));
        return ProcessRun.run(command, dir, output, Duration.ofMinutes(2),
                env -> env.put("FLINK_CONF_DIR", conf.toString()));
    }

    /**
     * Runs Flink's SQL client ({@code sql-client.sh}'s {@code SqlClient}) with this cluster's conf
     * directory, so its jobs go to the cluster, and lib plus {@code extraClasspath}.
     */
    ProcessRun sqlClient(Path output, List<Path> extraClasspath, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(split(opens));
        command.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
        command.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j-cli.properties"));
        command.add("-cp");
        command.add(extraClasspath.stream().map(Path::toString).collect(Collectors.joining(":", "", ":")) + classpath);
        command.add("org.apache.flink.table.client.SqlClient");
        command.addAll(Arrays.asList(args));
        return ProcessRun.run(command, dir, output, Duration.ofMinutes(2),
                env -> env.put("FLINK_CONF_DIR", conf.toString()));
    }

    /** GET on the REST API; the body. */
    String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(rest(path)).GET()
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** Cancels a job through the REST API (as {@code flink cancel} does). */
    void cancel(String jobId) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(rest("/jobs/" + jobId + "?mode=cancel"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202) {
            throw new IOException("Cancelling job " + jobId + " answered " + response.statusCode() + ": "
                    + response.body());
        }
    }

    /** The job's state as the REST API reports it (RUNNING, CANCELED, ...). */
    String jobState(String jobId) throws IOException, InterruptedException {
        Matcher m = Pattern.compile("\"state\"\\s*:\\s*\"([A-Z_]+)\"").matcher(get("/jobs/" + jobId));
        if (!m.find()) {
            throw new IOException("No state in the REST answer for job " + jobId);
        }
        return m.group(1);
    }

    /** The job's exceptions as the REST API reports them (for failure messages). */
    String exceptions(String jobId) {
        try {
            return get("/jobs/" + jobId + "/exceptions");
        } catch (Exception e) {
            return "(no exceptions: " + e + ")";
        }
    }

    /** {@code cause} with the jobs' exceptions and the tails of the cluster's logs. */
    AssertionError failure(Throwable cause, List<String> jobs) {
        StringBuilder message = new StringBuilder(String.valueOf(cause.getMessage()));
        for (String job : jobs) {
            message.append("\nexceptions of job ").append(job).append(": ").append(exceptions(job));
        }
        return new AssertionError(message.append('\n').append(logs()).toString(), cause);
    }

    /** The whole of one of the cluster's log files ({@code jobmanager.log}, {@code taskmanager.log}). */
    String log(String name) throws IOException {
        return Files.readString(dir.resolve("log").resolve(name), StandardCharsets.UTF_8);
    }

    /** The tails of the JobManager's and TaskManager's logs, for failure messages. */
    String logs() {
        StringBuilder all = new StringBuilder();
        try (var files = Files.list(dir.resolve("log"))) {
            for (Path log : (Iterable<Path>) files.sorted()::iterator) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                all.append("==> ").append(log.getFileName()).append(" <==\n");
                lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(l -> all.append(l).append('\n'));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all.toString();
    }

    private URI rest(String path) {
        return URI.create("http://localhost:" + restPort + path);
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> split(String flags) {
        return Arrays.stream(flags.trim().split("\\s+")).filter(s -> !s.isEmpty()).collect(Collectors.toList());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
