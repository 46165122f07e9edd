package dev.streamhouse.storage.table;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heap a primary-key table writer uses is bounded by {@code write-buffer-size} plus a constant:
 * a JVM with a 96 MiB heap writes about 15 times a 16 MiB buffer (spilling) and commits it.
 */
class PrimaryKeyWriteSmallHeapITCase {
    @TempDir
    Path dir;

    private static final int ROWS = 2_400_000;

    @Test
    void writesManyTimesTheBufferInASmallHeap() throws Exception {
        int rows = ROWS;
        ChildRun run = runChild("16 mb", rows);
        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(run.output).contains("RESULT keys=" + rows / 2);
        // The input (~15 x the buffer) really went through the buffer's spill path.
        long inputBytes = (long) rows * 100;
        assertThat(inputBytes).isGreaterThan(10L * 16 * 1024 * 1024);
    }

    /** Control: with a buffer larger than the heap the same job cannot succeed, so the bound binds. */
    @Test
    void theSameJobFailsWhenTheBufferExceedsTheHeap() throws Exception {
        ChildRun run = runChild("1 gb", ROWS);
        assertThat(run.exitCode).as(run.output).isNotZero();
        assertThat(run.output).contains("OutOfMemoryError");
    }

    private record ChildRun(int exitCode, String output) {}

    private ChildRun runChild(String bufferSize, int rows) throws Exception {
        Path log = dir.resolve("child-" + System.nanoTime() + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx96m", "-XX:+UseSerialGC",
                "-Djava.io.tmpdir=" + dir,
                "-cp", System.getProperty("java.class.path"),
                PrimaryKeyWriteSmallHeapMain.class.getName(),
                dir.resolve("table-" + System.nanoTime()).toString(), bufferSize, Integer.toString(rows))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!child.waitFor(10, TimeUnit.MINUTES)) {
            child.destroyForcibly().waitFor();
            throw new AssertionError("child did not finish; output:\n" + Files.readString(log));
        }
        return new ChildRun(child.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
