package dev.streamhouse.sqlrunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.awaitility.Awaitility.await;

/**
 * A command left running while a test works alongside it (stdout and stderr merged into a file):
 * the test waits for lines of its output, then stops it with SIGTERM as a user or a service manager
 * would. {@link #close()} kills whatever still runs, so a failing test leaves no process behind.
 */
final class BackgroundRun implements AutoCloseable {
    private final Process process;
    private final Path outputFile;

    private BackgroundRun(Process process, Path outputFile) {
        this.process = process;
        this.outputFile = outputFile;
    }

    static BackgroundRun start(List<String> command, Path workDir, Path outputFile,
            Consumer<Map<String, String>> environment) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(outputFile.toFile());
        builder.environment().put("FLINK_LINE", ProcessRun.flinkLine());
        environment.accept(builder.environment());
        ProcessRun.addChildJvmOptions(builder.environment());
        return new BackgroundRun(builder.start(), outputFile);
    }

    String output() {
        try {
            return Files.readString(outputFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the command still runs. */
    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until the output contains {@code text}; fails early when the command has ended without it. */
    void awaitOutput(String text, Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() -> {
            String output = output();
            if (output.contains(text)) {
                return true;
            }
            if (!process.isAlive()) {
                throw new AssertionError("The command ended (exit " + process.exitValue() + ") without printing '"
                        + text + "':\n" + output);
            }
            return false;
        });
    }

    /** Sends SIGTERM and waits for the command to end; its exit status. */
    int stop(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("The command did not end within " + timeout + " of SIGTERM:\n" + output());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
