package dev.streamhouse.storage.read;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which read failures say a data file is damaged: a size that differs from the recorded one, a premature
 * end, a decoder's error. An I/O error of the file system (which a retry may cure), a cancelled read and
 * a defect of the reader are not.
 */
class DataFileFailuresTest {
    @TempDir
    java.nio.file.Path tmp;

    private DataFileFailures failuresOf(int actualSize, long recordedSize) throws Exception {
        java.nio.file.Path file = tmp.resolve("data-1.parquet");
        Files.write(file, new byte[actualSize]);
        return new DataFileFailures(LocalFileIO.INSTANCE, new Path(file.toString()), recordedSize, "db.t",
                "partition dt=1, bucket 3");
    }

    @Test
    void sizeDifferentFromTheRecordedOneIsTruncation() throws Exception {
        Exception e = failuresOf(10, 20).translate(new IOException("Cannot read Parquet file x", new EOFException()));
        assertThat(e).isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining("data-1.parquet of table db.t (partition dt=1, bucket 3): it has 10 bytes but "
                        + "20 were written (truncated)")
                .hasCauseInstanceOf(IOException.class);
    }

    @Test
    void prematureEndOrDecoderErrorWithTheRightSizeIsDamage() throws Exception {
        assertThat(failuresOf(20, 20).translate(new IOException("x", new EOFException("reached end"))))
                .isInstanceOf(CorruptDataFileException.class).hasMessageContaining("ends before the data");
        assertThat(failuresOf(20, 20).translate(new IOException("x", new IllegalStateException("CRC mismatch"))))
                .isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining("cannot be decoded (IllegalStateException: CRC mismatch)");
    }

    @Test
    void fileSystemErrorsCancellationsAndDefectsAreNotDamage() throws Exception {
        DataFileFailures failures = failuresOf(20, 20);
        for (Throwable failure : new Throwable[] {new IOException("Connection reset"),
                new RuntimeException("x", new InterruptedIOException("cancelled")),
                new IOException("x", new NullPointerException())}) {
            assertThat(failures.translate(failure)).as("%s", failure)
                    .isExactlyInstanceOf(IOException.class)
                    .hasMessageStartingWith("Cannot read data file ")
                    .hasMessageContaining("of table db.t (partition dt=1, bucket 3): ")
                    .hasCause(failure);
        }
    }
}
