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

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unmerged, sorted read of the write buffer ({@code changelog-producer = input}): every record once,
 * in (key, sequence number) order, from memory and spilled runs alike.
 */
class WriteBufferSortedReadTest {
    private static final RowType KEY = RowType.of(STRING(), INT());

    @TempDir
    Path dir;

    /** The expected sorted read: all puts ordered by key, then sequence number. */
    private static List<List<Object>> sortedModel(List<BufferTestData.Put> puts) {
        KeyComparator keys = new KeyComparator(KEY);
        List<BufferTestData.Put> sorted = new ArrayList<>(puts);
        sorted.sort(Comparator.<BufferTestData.Put, InternalRow>comparing(BufferTestData.Put::key, keys)
                .thenComparingLong(BufferTestData.Put::seq));
        List<List<Object>> out = new ArrayList<>();
        for (BufferTestData.Put p : sorted) {
            out.add(List.of(canonical(p.key()), p.seq(), p.kind(), canonical(p.value())));
        }
        return out;
    }

    private static List<KeyValue> readSorted(WriteBuffer buffer) throws IOException {
        List<KeyValue> out = new ArrayList<>();
        try (RecordReader<KeyValue> reader = buffer.sortedReader()) {
            reader.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void inMemoryReadKeepsEveryVersionInKeyThenSequenceOrder() throws IOException {
        // Puts arrive with shuffled sequence numbers, so the order really comes from the sort.
        List<BufferTestData.Put> puts = new ArrayList<>(randomPuts(KEY, new Random(21), 3000, 200));
        java.util.Collections.shuffle(puts, new Random(22));
        try (WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), new MemoryPool(32 << 20, 4096)).build()) {
            putAll(buffer, puts);
            List<KeyValue> sorted = readSorted(buffer);
            assertThat(sorted).hasSize(puts.size());
            assertThat(canonical(sorted)).isEqualTo(sortedModel(puts));
            assertThat(sorted).allMatch(kv -> kv.value().rowKind() == kv.valueKind());
            // The buffer keeps its records: the merged read (for the data file) still sees all of them.
            assertThat(canonical(drain(buffer, new LastWinsMergeFunction()))).isEqualTo(lastWinsModel(KEY, puts));
            assertThat(canonical(readSorted(buffer))).as("a second sorted read").isEqualTo(sortedModel(puts));
        }
    }

    @Test
    void spilledRunsAreReadUnmergedToo() throws IOException {
        List<BufferTestData.Put> puts = randomPuts(KEY, new Random(23), 12_000, 400);
        MemoryPool small = new MemoryPool(32 * 1024, 1024);
        try (WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), small).spillTo(dir).maxSpillFileHandles(3)
                .build()) {
            putAll(buffer, puts);
            assertThat(buffer.spilledRunCount()).as("the small pool forced spills").isGreaterThan(5);
            List<KeyValue> sorted = readSorted(buffer);
            assertThat(buffer.mergePasses()).as("merge passes ran over the spill files").isPositive();
            assertThat(canonical(sorted)).isEqualTo(sortedModel(puts));
            assertThat(canonical(drain(buffer, new LastWinsMergeFunction()))).isEqualTo(lastWinsModel(KEY, puts));
        }
    }

    @Test
    void oneReaderAtATime() throws IOException {
        try (WriteBuffer buffer = WriteBuffer.builder(KEY, valueType(), new MemoryPool(1 << 20, 4096)).build()) {
            GenericRow key = GenericRow.of(BinaryString.fromString("k"), 1);
            buffer.put(1, RowKind.INSERT, key, GenericRow.of(1L, BinaryString.fromString("a"), 1));
            RecordReader<KeyValue> reader = buffer.sortedReader();
            assertThatThrownBy(() -> buffer.put(2, RowKind.DELETE, key, GenericRow.of(1L, BinaryString.fromString("a"), 1)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("reader is still open");
            assertThatThrownBy(() -> buffer.mergedReader(new LastWinsMergeFunction()))
                    .isInstanceOf(IllegalStateException.class);
            reader.close();
            buffer.put(2, RowKind.DELETE, key, GenericRow.of(1L, BinaryString.fromString("a"), 1));
            assertThat(readSorted(buffer)).extracting(KeyValue::valueKind).containsExactly(RowKind.INSERT, RowKind.DELETE);
            buffer.clear();
            assertThat(readSorted(buffer)).isEmpty();
        }
    }
}
