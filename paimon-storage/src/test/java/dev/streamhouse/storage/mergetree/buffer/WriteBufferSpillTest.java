package dev.streamhouse.storage.mergetree.buffer;

import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.canonical;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.drain;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.lastWinsModel;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.putAll;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.randomPuts;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.valueType;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spilling sorted runs to local disk: same output as in memory, merge passes, disk budget, cleanup, errors. */
class WriteBufferSpillTest {
    private static final RowType KEY = RowType.of(STRING(), INT());

    @TempDir
    Path dir;

    private static List<Path> files(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(directory)) {
            return s.collect(Collectors.toList());
        }
    }

    @Test
    void spillPathEqualsInMemoryPath() throws IOException {
        List<BufferTestData.Put> puts = randomPuts(KEY, new Random(11), 20_000, 3000);
        List<List<Object>> inMemory;
        try (WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), new MemoryPool(64 << 20, 4096)).build()) {
            putAll(buffer, puts);
            assertThat(buffer.spilledRunCount()).isZero();
            inMemory = canonical(drain(buffer, new LastWinsMergeFunction()));
        }
        MemoryPool small = new MemoryPool(64 * 1024, 1024);
        try (WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), small).spillTo(dir.resolve("spill")).build()) {
            putAll(buffer, puts);
            assertThat(buffer.spilledRunCount()).as("the small pool forced spills").isGreaterThan(5);
            assertThat(buffer.size()).isEqualTo(puts.size());
            assertThat(buffer.spilledBytes()).isPositive();
            LastWinsMergeFunction mf = new LastWinsMergeFunction();
            List<List<Object>> spilled = canonical(drain(buffer, mf));
            assertThat(mf.added).isEqualTo(puts.size());
            assertThat(spilled).isEqualTo(inMemory).isEqualTo(lastWinsModel(KEY, puts));
            assertThat(canonical(drain(buffer, new LastWinsMergeFunction()))).as("a second read").isEqualTo(inMemory);
            assertThat(small.usedBytes()).isLessThanOrEqualTo(small.totalBytes());
        }
    }

    @Test
    void mergesInPassesWhenRunsExceedTheFileHandleLimit() throws IOException {
        List<BufferTestData.Put> puts = randomPuts(KEY, new Random(12), 8_000, 500);
        try (WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), new MemoryPool(16 * 1024, 1024))
                .spillTo(dir).maxSpillFileHandles(2).build()) {
            putAll(buffer, puts);
            int runs = buffer.spilledRunCount();
            assertThat(runs).isGreaterThan(6);
            List<KeyValue> out = drain(buffer, new LastWinsMergeFunction());
            assertThat(buffer.mergePasses()).isEqualTo(runs - 2);
            assertThat(buffer.spilledRunCount()).isEqualTo(2);
            assertThat(files(dir)).hasSize(2);
            assertThat(canonical(out)).isEqualTo(lastWinsModel(KEY, puts));
            assertThat(buffer.size()).as("merge passes keep every version").isEqualTo(puts.size());
        }
    }

    @Test
    void putReturnsFalseOnceTheDiskBudgetIsUsed() throws IOException {
        long maxDisk = 40 * 1024;
        List<BufferTestData.Put> puts = randomPuts(KEY, new Random(13), 20_000, 100_000);
        try (WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), new MemoryPool(16 * 1024, 1024))
                .spillTo(dir).maxSpillDiskBytes(maxDisk).build()) {
            List<BufferTestData.Put> accepted = new ArrayList<>();
            for (BufferTestData.Put p : puts) {
                if (!buffer.put(p.seq(), p.kind(), p.key(), p.value())) {
                    break;
                }
                accepted.add(p);
                assertThat(buffer.spilledBytes()).isLessThanOrEqualTo(maxDisk);
            }
            assertThat(accepted.size()).as("put eventually refused").isLessThan(puts.size());
            assertThat(buffer.spilledRunCount()).as("it spilled before refusing").isPositive();
            long onDisk = 0;
            for (Path f : files(dir)) {
                onDisk += Files.size(f);
            }
            assertThat(onDisk).isEqualTo(buffer.spilledBytes()).isLessThanOrEqualTo(maxDisk);
            assertThat(canonical(drain(buffer, new LastWinsMergeFunction()))).isEqualTo(lastWinsModel(KEY, accepted));
        }
    }

    @Test
    void deletesSpillFilesOnClearAndClose() throws IOException {
        List<BufferTestData.Put> puts = randomPuts(KEY, new Random(14), 3_000, 1000);
        WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), new MemoryPool(16 * 1024, 1024)).spillTo(dir).build();
        putAll(buffer, puts);
        List<Path> spilled = files(dir);
        assertThat(spilled).isNotEmpty().allMatch(p -> p.getFileName().toString().startsWith("write-buffer-"));
        assertThat(SpillFiles.liveFiles()).containsAll(spilled);
        buffer.clear();
        assertThat(files(dir)).isEmpty();
        assertThat(SpillFiles.liveFiles()).doesNotContainAnyElementsOf(spilled);
        assertThat(buffer.isEmpty()).isTrue();

        putAll(buffer, puts);
        List<Path> again = files(dir);
        assertThat(again).isNotEmpty();
        buffer.mergedReader(new LastWinsMergeFunction()); // left open: close must still clean up
        buffer.close();
        assertThat(files(dir)).isEmpty();
        assertThat(SpillFiles.liveFiles()).doesNotContainAnyElementsOf(again);
    }

    @Test
    void readErrorsNameTheSpillFile() throws IOException {
        List<BufferTestData.Put> puts = randomPuts(KEY, new Random(15), 3_000, 1000);
        try (WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), new MemoryPool(16 * 1024, 1024))
                .spillTo(dir).build()) {
            putAll(buffer, puts);
            Path victim = files(dir).get(0);
            try (RandomAccessFile f = new RandomAccessFile(victim.toFile(), "rw")) {
                f.setLength(f.length() / 2);
            }
            assertThatThrownBy(() -> drain(buffer, new LastWinsMergeFunction()))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("Cannot read write-buffer spill file " + victim);
        }
    }

    @Test
    void spillFailureFailsThePutAndKeepsTheBufferedRecords() throws IOException {
        Path notADirectory = Files.createFile(dir.resolve("occupied"));
        MemoryPool pool = new MemoryPool(16 * 1024, 1024);
        try (WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), pool).spillTo(notADirectory).build()) {
            List<BufferTestData.Put> accepted = new ArrayList<>();
            IOException failure = null;
            for (BufferTestData.Put p : randomPuts(KEY, new Random(16), 3_000, 1000)) {
                try {
                    buffer.put(p.seq(), p.kind(), p.key(), p.value());
                    accepted.add(p);
                } catch (IOException e) {
                    failure = e;
                    break;
                }
            }
            assertThat(failure).isNotNull();
            assertThat(failure.getMessage()).contains("Cannot create a write-buffer spill file in " + notADirectory);
            assertThat(buffer.size()).isEqualTo(accepted.size());
            assertThat(pool.usedBytes()).as("no page leaked by the failed put").isEqualTo(buffer.memoryOccupancy());
            assertThat(canonical(drain(buffer, new LastWinsMergeFunction()))).isEqualTo(lastWinsModel(KEY, accepted));
        }
    }
}
