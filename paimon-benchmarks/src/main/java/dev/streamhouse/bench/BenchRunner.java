package dev.streamhouse.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What {@code bin/bench} runs: every workload asked for, {@code runs} times per implementation,
 * alternating (ours, Paimon, ours, Paimon), each run in a fresh JVM with the same JVM flags and the
 * same Flink configuration, only the implementation's jars differing. Watches each JVM's peak RSS
 * ({@code VmHWM}), collects the {@code RESULT} lines, appends them to {@code bench-results.txt} and
 * prints the side-by-side table ({@link ResultTable}).
 *
 * <p>Set by bin/bench as system properties: {@code bench.module} (the module directory), {@code
 * bench.java}, {@code bench.jvm-flags} (the same for every run, including Flink's add-opens list),
 * {@code bench.commit}.
 */
public final class BenchRunner {
    /**
     * Flink's Kafka connector with kafka-clients relocated, as flink-sql-connector-kafka has it, which
     * Apache Paimon's Kafka sync links against (built by this module's pom).
     */
    private static final String PAIMON_KAFKA_CONNECTOR = "paimon-kafka/flink-sql-connector-kafka.jar";
    private final Path module;
    private final Path target;
    private final Path workDir;
    private final String java;
    private final List<String> jvmFlags;
    private final BenchParams params;
    private final int runs;
    private final long timeoutMinutes;
    /** The Flink line the benchmark JVMs run ({@code bin/bench}'s FLINK_LINE): Apache Paimon 1.3 runs on 1.x only. */
    private final String flinkLine;
    private final ResultTable table = new ResultTable();
    private final List<String> resultLines = new ArrayList<>();
    /** 1-minute load averages seen when runs started: other work on the machine skews results. */
    private double minLoad = Double.MAX_VALUE;
    private double maxLoad;

    private BenchRunner(BenchParams params, int runs, long timeoutMinutes) {
        this.module = Path.of(System.getProperty("bench.module", ".")).toAbsolutePath();
        this.target = module.resolve("target");
        this.workDir = target.resolve("bench");
        this.java = System.getProperty("bench.java", "java");
        this.jvmFlags =
                Arrays.asList(System.getProperty("bench.jvm-flags", "").trim().split("\\s+"));
        this.params = params;
        this.runs = runs;
        this.timeoutMinutes = timeoutMinutes;
        this.flinkLine = System.getProperty("bench.flink-line", "1.20");
    }

    /** Apache Paimon 1.3 has no connector for Flink 2, so on a Flink 2 line only ours runs. */
    private boolean paimonRuns() {
        return flinkLine.startsWith("1.");
    }

    public static void main(String[] args) throws Exception {
        BenchParams params;
        int runs = 2;
        long timeoutMinutes = 20;
        List<Workload> workloads = new ArrayList<>();
        try {
            List<String> other = new ArrayList<>();
            params = BenchParams.parse(Arrays.asList(args), other);
            for (int i = 0; i < other.size(); i++) {
                String arg = other.get(i);
                if (arg.equals("--runs") && i + 1 < other.size()) {
                    runs = Integer.parseInt(other.get(++i));
                } else if (arg.equals("--timeout-minutes") && i + 1 < other.size()) {
                    timeoutMinutes = Long.parseLong(other.get(++i));
                } else if (arg.equals("-h") || arg.equals("--help")) {
                    System.out.println(usage());
                    return;
                } else if (arg.startsWith("-")) {
                    throw new IllegalArgumentException("Cannot parse option " + arg);
                } else {
                    workloads.add(Workload.of(arg));
                }
            }
            if (runs < 1) {
                throw new IllegalArgumentException("Cannot run: --runs must be at least 1");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage() + "\n" + usage());
            System.exit(2);
            return;
        }
        if (workloads.isEmpty()) {
            workloads.addAll(Arrays.asList(Workload.values()));
        }
        new BenchRunner(params, runs, timeoutMinutes).runAll(workloads);
    }

    private static String usage() {
        return "Usage: bin/bench [workload...] [options]\n"
                + "workloads (default: all): "
                + Workload.ids()
                + "\n"
                + BenchParams.usage()
                + "\n"
                + "  --runs N           runs per implementation, alternating (default 2)\n"
                + "  --timeout-minutes N  per JVM (default 20)";
    }

    private void runAll(List<Workload> workloads) throws Exception {
        Files.createDirectories(workDir.resolve("logs"));
        Files.createDirectories(sharedTmpDir());
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        say("sizes: %s; %d run(s) per implementation, alternating; Flink %s; JVM flags: %s",
                params, runs, flinkLine, String.join(" ", userFlags()));
        if (!paimonRuns()) {
            say("Flink %s: Apache Paimon 1.3 has no connector for this line, so only streamhouse runs;"
                    + " compare with a Flink 1.20 run of the same workloads", flinkLine);
        }
        for (Workload workload : workloads) {
            runWorkload(workload);
        }
        String header =
                String.format(
                        Locale.ROOT,
                        "# bench started=%s finished=%s commit=%s flink=%s cores=%d load=%.1f-%.1f %s runs=%d",
                        started,
                        Instant.now().truncatedTo(ChronoUnit.SECONDS),
                        System.getProperty("bench.commit", "unknown"),
                        flinkLine,
                        Runtime.getRuntime().availableProcessors(),
                        minLoad == Double.MAX_VALUE ? 0 : minLoad,
                        maxLoad,
                        params,
                        runs);
        List<String> lines = new ArrayList<>();
        lines.add(header);
        lines.addAll(resultLines);
        Path results = target.resolve("bench-results.txt");
        Files.write(
                results,
                lines,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        String markdown = table.markdown();
        Files.writeString(target.resolve("bench-table.md"), header + "\n\n" + markdown);
        System.out.println();
        System.out.println(markdown);
        say("results appended to %s; table in %s", results, target.resolve("bench-table.md"));
    }

    private void runWorkload(Workload workload) throws Exception {
        if (workload.skippedBecause != null) {
            say("%s: skipped: %s", workload.id, workload.skippedBecause);
            table.skipped(workload.id, workload.skippedBecause);
            return;
        }
        List<String> impls = new ArrayList<>(workload.impls());
        if (!paimonRuns()) {
            impls.remove("paimon");
            if ("paimon".equals(workload.sharedTableWriter())) {
                say("%s: skipped: its table is written by Apache Paimon, which has no Flink %s connector",
                        workload.id, flinkLine);
                table.skipped(workload.id, "the table is written by Apache Paimon (Flink 1.x only)");
                return;
            }
        }
        if (workload.readsPreparedTable && workload.sharedTableWriter() != null) {
            // One table, written by one implementation, read by all of them.
            String writer = workload.sharedTableWriter();
            RunOutcome prep = runJvm(workload.preparation(), writer, 0, sharedTmpDir(),
                    workload.workDirName(writer));
            if (prep.failure != null) {
                for (String impl : impls) {
                    table.failed(workload.id, impl,
                            "preparing the table (written by " + writer + "): " + prep.failure);
                }
                impls.clear();
            }
        } else if (workload.readsPreparedTable) {
            for (String impl : new ArrayList<>(impls)) {
                RunOutcome prep = runJvm(workload.preparation(), impl, 0, sharedTmpDir(),
                        workload.workDirName(impl));
                if (prep.failure != null) {
                    table.failed(workload.id, impl, "preparing the table: " + prep.failure);
                    impls.remove(impl);
                }
            }
        }
        for (int run = 1; run <= runs; run++) {
            for (String impl : impls) {
                Path tmpDir =
                        workload.ownsTmpDir()
                                ? workDir.resolve("tmp").resolve(workload.id + "-" + impl + "-" + run)
                                : sharedTmpDir();
                RunOutcome outcome = runJvm(workload.id, impl, run, tmpDir, workload.workDirName(impl));
                if (outcome.failure != null) {
                    table.failed(workload.id, impl, outcome.failure);
                }
                table.peakRss(workload.id, impl, outcome.peakRssKb);
            }
        }
    }

    /** The temporary directory of the runs of workloads without one of their own. */
    private Path sharedTmpDir() {
        return target.resolve("tmp");
    }

    /**
     * One JVM: {@code BenchMain <workload> <impl> <work dir> <sizes>}, the work dir {@code
     * workDirName} under the runner's, its {@code java.io.tmpdir} {@code tmpDir}. A directory other than {@link #sharedTmpDir()} is the run's own: emptied
     * before the JVM starts and removed after it ended.
     */
    private RunOutcome runJvm(String workload, String impl, int run, Path tmpDir, String workDirName)
            throws Exception {
        boolean ownTmpDir = !tmpDir.equals(sharedTmpDir());
        if (ownTmpDir) {
            deleteTree(tmpDir);
        }
        Files.createDirectories(tmpDir);
        try {
            return runJvmIn(workload, impl, run, tmpDir, workDirName);
        } finally {
            if (ownTmpDir) {
                deleteTree(tmpDir);
            }
        }
    }

    private RunOutcome runJvmIn(String workload, String impl, int run, Path tmpDir, String workDirName)
            throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmFlags);
        if (Workload.isId(workload)) {
            cmd.addAll(Workload.of(workload).jvmFlags());
        }
        String log = String.format("%s-%s-%d.log", workload, impl, run);
        cmd.add("-Dlog.file=" + workDir.resolve("logs").resolve(log));
        cmd.add("-Djava.io.tmpdir=" + tmpDir);
        cmd.add("-cp");
        cmd.add(classpath(impl, workload));
        cmd.add(BenchMain.class.getName());
        cmd.add(workload);
        cmd.add(impl);
        cmd.add(workDir.resolve(workDirName).toString());
        cmd.addAll(params.toArgs());
        double load = loadAverage();
        minLoad = Math.min(minLoad, load);
        maxLoad = Math.max(maxLoad, load);
        say("%s %s%s (load average %.1f)", workload, impl, run == 0 ? " (not timed)" : " run " + run, load);
        Process process =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.PIPE)
                        .start();
        RunOutcome outcome = new RunOutcome();
        Thread reader =
                new Thread(
                        () -> readOutput(process, workload, impl, run, outcome), "bench-output");
        reader.start();
        // A soak longer than the timeout gets its own minutes and ten more.
        long minutes = workload.equals(Workload.SOAK.id) ? Math.max(timeoutMinutes, params.soakMinutes + 10) : timeoutMinutes;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
        Path status = Path.of("/proc", Long.toString(process.pid()), "status");
        while (!process.waitFor(100, TimeUnit.MILLISECONDS)) {
            outcome.peakRssKb = Math.max(outcome.peakRssKb, vmHwmKb(status));
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                process.waitFor();
                outcome.failure = "timed out after " + minutes + " min";
            }
        }
        reader.join();
        if (outcome.failure == null && process.exitValue() != 0) {
            outcome.failure =
                    outcome.failedReason != null
                            ? outcome.failedReason
                            : "exit status " + process.exitValue();
        }
        if (outcome.failure != null) {
            say("%s %s failed: %s (log: %s)", workload, impl, outcome.failure,
                    workDir.resolve("logs").resolve(log));
        } else if (run > 0) {
            // Only a run that finished counts: a failed run's partial results are left out.
            for (String line : outcome.reported) {
                resultLines.add(line + " run=" + run);
                ResultLine parsed = ResultLine.parse(line);
                if (line.startsWith("RESULT ")) {
                    table.add(parsed);
                } else {
                    table.unsupported(parsed.workload, parsed.impl, parsed.metric, parsed.reason);
                }
            }
            resultLines.add(
                    String.format(
                            Locale.ROOT,
                            "RESULT workload=%s impl=%s metric=peak-rss value=%.1f unit=MB run=%d",
                            workload, impl, outcome.peakRssKb / 1024.0, run));
        }
        return outcome;
    }

    private void readOutput(Process process, String workload, String impl, int run, RunOutcome out) {
        StringBuilder transcript = new StringBuilder();
        try (BufferedReader in =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                transcript.append(line).append('\n');
                if (line.startsWith("RESULT ") || line.startsWith("UNSUPPORTED ") || line.startsWith("INFO ")) {
                    System.out.println("  " + line);
                }
                if (run > 0 && (line.startsWith("RESULT ") || line.startsWith("UNSUPPORTED "))) {
                    out.reported.add(line);
                } else if (line.startsWith("FAILED reason=")) {
                    out.failedReason = line.substring("FAILED reason=".length());
                }
            }
            Files.writeString(
                    workDir.resolve("logs").resolve(String.format("%s-%s-%d.out", workload, impl, run)),
                    transcript);
        } catch (IOException e) {
            out.failedReason = "cannot read its output: " + e.getMessage();
        }
    }

    /**
     * The classpath of a run: the implementation's ({@link #classpath(String)}), plus for a workload
     * that needs them streamhouse's CDC module (ours' runs only) and the Kafka driver's jars with, for
     * Paimon's runs, the Kafka connector Paimon links against and the Avro its Debezium parser loads.
     * Each jar once, in that order.
     */
    private String classpath(String impl, String workload) throws IOException {
        Workload w = Arrays.stream(Workload.values()).filter(x -> x.id.equals(workload)).findFirst().orElse(null);
        List<String> parts = new ArrayList<>();
        parts.add(classpath(impl));
        if (w != null && w.needsCdc() && "ours".equals(impl)) {
            parts.add(cdcExtras());
        }
        if (w != null && w.needsKafka()) {
            parts.add(read("classpath-kafka.txt"));
            if ("paimon".equals(impl)) {
                parts.add(target.resolve(PAIMON_KAFKA_CONNECTOR).toString());
                parts.add(read("classpath-paimon-kafka.txt"));
            }
        }
        java.util.Set<String> entries = new java.util.LinkedHashSet<>();
        for (String part : parts) {
            for (String entry : part.split(":")) {
                if (!entry.isEmpty()) {
                    entries.add(entry);
                }
            }
        }
        return String.join(":", entries);
    }

    /**
     * The jars the MySQL CDC module adds to Flink's and ours: everything the benchmark module
     * resolves with test scope (classpath-test.txt) less what the other classpath files list.
     */
    private String cdcExtras() throws IOException {
        java.util.Set<String> known = new java.util.HashSet<>();
        for (String file : List.of("classpath-flink.txt", "classpath-ours.txt", "classpath-paimon.txt",
                "classpath-hadoop.txt", "classpath-parquet.txt")) {
            known.addAll(Arrays.asList(read(file).split(":")));
        }
        List<String> extras = new ArrayList<>();
        for (String entry : read("classpath-test.txt").split(":")) {
            if (!entry.isEmpty() && !known.contains(entry)) {
                extras.add(entry);
            }
        }
        return String.join(":", extras);
    }

    private String classpath(String impl) throws IOException {
        List<String> parts = new ArrayList<>();
        parts.add(target.resolve("classes").toString());
        parts.add(read("classpath-flink.txt"));
        switch (impl) {
            case "ours":
                parts.add(read("classpath-ours.txt"));
                break;
            case "paimon":
                parts.add(read("classpath-paimon.txt"));
                parts.add(read("classpath-hadoop.txt"));
                // What src/paimon/java compiles to against Paimon's jar (reader-scan's reader).
                parts.add(target.resolve("test-classes").toString());
                break;
            case "parquet":
                parts.add(read("classpath-parquet.txt"));
                break;
            default:
                throw new IllegalArgumentException("Cannot run implementation " + impl);
        }
        return String.join(":", parts);
    }

    private String read(String file) throws IOException {
        return Files.readString(target.resolve(file)).trim();
    }

    /** The flags without Flink's add-opens list, for the log line. */
    private List<String> userFlags() {
        List<String> out = new ArrayList<>();
        for (String f : jvmFlags) {
            if (!f.startsWith("--add-") && !f.startsWith("-XX:+IgnoreUnrecognized") && !f.startsWith("-Dlog4j")) {
                out.add(f);
            }
        }
        return out;
    }

    /** Removes a run's temporary directory; what cannot be removed is left, with a message. */
    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            say("cannot remove %s: %s", root, e);
        }
    }

    private static long vmHwmKb(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // The process just exited, or there is no /proc: keep what was seen.
        }
        return 0;
    }

    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static void say(String format, Object... args) {
        System.out.println("bench: " + String.format(Locale.ROOT, format, args));
        System.out.flush();
    }

    private static final class RunOutcome {
        volatile long peakRssKb;
        volatile String failedReason;
        volatile String failure;
        final List<String> reported = Collections.synchronizedList(new ArrayList<>());
    }
}
