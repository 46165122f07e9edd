package dev.streamhouse.sqlrunner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Runs a command to completion with a deadline; output (stdout and stderr merged) goes to a file. */
public final class ProcessRun {
    public final int exitCode;
    public final String output;
    public final Duration elapsed;

    private ProcessRun(int exitCode, String output, Duration elapsed) {
        this.exitCode = exitCode;
        this.output = output;
        this.elapsed = elapsed;
    }

    /**
     * The Flink line this build is for (Maven's {@code flink.line}): the tests run the scripts with
     * FLINK_LINE set to it, since they run what Maven has just built.
     */
    public static String flinkLine() {
        String line = System.getProperty("streamhouse.flink.line");
        if (line == null) {
            throw new IllegalStateException("System property streamhouse.flink.line is not set (Maven's surefire sets it)");
        }
        return line;
    }

    /**
     * JVM options for the JVMs a test starts (Maven's {@code surefire.jit}: the tests' JIT setting), empty
     * outside Maven.
     */
    public static List<String> childJvmOptions() {
        String options = System.getProperty("streamhouse.test.jvm.opts", "").trim();
        return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
    }

    /**
     * Passes {@link #childJvmOptions()} to the JVMs of bin/flink-sql and bin/cdc through their documented
     * settings, after the test's own environment.
     */
    static void addChildJvmOptions(Map<String, String> env) {
        String options = String.join(" ", childJvmOptions());
        if (!options.isEmpty()) {
            for (String name : List.of("FLINK_SQL_JAVA_OPTS", "CDC_JAVA_OPTS")) {
                env.merge(name, options, (own, added) -> own + " " + added);
            }
        }
    }

    public static ProcessRun run(List<String> command, Path workDir, Path outputFile, Duration timeout,
                          Consumer<Map<String, String>> environment) throws IOException, InterruptedException {
        return run(command, workDir, outputFile, timeout, environment, Path.of("/dev/null"));
    }

    /** As above, with standard input read from {@code input}. */
    public static ProcessRun run(List<String> command, Path workDir, Path outputFile, Duration timeout,
                          Consumer<Map<String, String>> environment, Path input) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(input.toFile()))
                .redirectOutput(outputFile.toFile());
        builder.environment().put("FLINK_LINE", flinkLine());
        environment.accept(builder.environment());
        addChildJvmOptions(builder.environment());
        long started = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("Cannot finish " + command + " within " + timeout + "; output so far:\n"
                    + Files.readString(outputFile, StandardCharsets.UTF_8));
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        return new ProcessRun(process.exitValue(), Files.readString(outputFile, StandardCharsets.UTF_8), elapsed);
    }
}
