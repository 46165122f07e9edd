package dev.streamhouse.storage.mergetree.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heap use of a spilling write buffer is bounded by the buffer size plus a constant: a JVM with a 64 MiB
 * heap pushes 20× a 16 MiB buffer (320 MiB of records, 5× its heap) through it and verifies the merged
 * output ({@link SmallHeapSpillMain}).
 */
class WriteBufferSmallHeapITCase {
    private static final long BUFFER_BYTES = 16L << 20;

    @TempDir
    Path dir;

    @Test
    void writesTwentyTimesTheBufferInASixtyFourMebibyteHeap() throws Exception {
        Path spill = dir.resolve("spill");
        ChildResult result = runChild(BUFFER_BYTES, 20 * BUFFER_BYTES, spill);
        System.out.println("small-heap child: " + result.output.strip());
        assertThat(result.exitCode).as("child exit code; output:%n%s", result.output).isZero();
        assertThat(result.output).contains("OK keys=").contains("maxHeap=");
        assertThat(spillFiles(spill)).as("spill files deleted on close").isEmpty();
    }

    /** Control: the same data with a buffer as large as the data (nothing spills) exhausts the small heap. */
    @Test
    void theSameDataWithoutSpillingDoesNotFitTheHeap() throws Exception {
        ChildResult result = runChild(20 * BUFFER_BYTES, 20 * BUFFER_BYTES, dir.resolve("spill"));
        assertThat(result.exitCode).as("output:%n%s", result.output).isEqualTo(1);
        assertThat(result.output).contains("FAIL java.lang.OutOfMemoryError");
    }

    private record ChildResult(int exitCode, String output) {}

    private ChildResult runChild(long bufferBytes, long totalBytes, Path spill) throws Exception {
        Path log = Files.createTempFile(dir, "child", ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx64m", "-XX:+UseSerialGC",
                "-Djava.io.tmpdir=" + dir,
                "-cp", System.getProperty("java.class.path"),
                SmallHeapSpillMain.class.getName(),
                Long.toString(bufferBytes), Long.toString(totalBytes), spill.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!child.waitFor(10, TimeUnit.MINUTES)) {
            child.destroyForcibly().waitFor();
            throw new AssertionError("child did not finish in 10 minutes; output:\n" + Files.readString(log));
        }
        return new ChildResult(child.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private static List<Path> spillFiles(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(directory)) {
            return s.toList();
        }
    }
}
