package dev.streamhouse.storage.mergetree.buffer;

import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.canonical;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.drain;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.lastWinsModel;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.putAll;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.randomPuts;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.valueType;
import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Sorting and merging in memory (no spilling): output against a last-wins model, and the put contract. */
class WriteBufferTest {
    private static final RowType INT_KEY = RowType.of(INT());

    static Stream<RowType> keyTypes() {
        return Stream.of(RowType.of(INT()), RowType.of(BIGINT()), RowType.of(STRING()), RowType.of(INT(), STRING()),
                RowType.of(STRING(), INT()), RowType.of(INT(), INT()), RowType.of(DOUBLE()),
                RowType.of(DECIMAL(30, 5), INT()), RowType.of(TIMESTAMP(9)));
    }

    private static WriteBuffer buffer(RowType keyType, MemoryPool pool) {
        return WriteBuffer.builder(keyType, valueType(), pool).build();
    }

    private static GenericRow key(int k) {
        return GenericRow.of(k);
    }

    private static GenericRow value(long id, String s, int n) {
        return GenericRow.of(id, BinaryString.fromString(s), n);
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void mergesLikeLastWinsModel(RowType keyType) throws IOException {
        List<BufferTestData.Put> puts = randomPuts(keyType, new Random(keyType.asSQLString().hashCode()), 5000, 400);
        try (WriteBuffer buffer = buffer(keyType, new MemoryPool(8 << 20, 4096))) {
            putAll(buffer, puts);
            assertThat(buffer.size()).isEqualTo(puts.size());
            LastWinsMergeFunction mf = new LastWinsMergeFunction();
            List<KeyValue> out = drain(buffer, mf);
            assertThat(canonical(out)).isEqualTo(lastWinsModel(keyType, puts));
            assertThat(mf.added).as("every version reaches the merge function").isEqualTo(puts.size());
            assertThat(out.size()).as("the data has duplicate keys").isLessThan(puts.size());
        }
    }

    /**
     * A merge function whose result is the last version (deduplicate) gets only that version of each key;
     * the output is the same as when every version is added. Small pages, so records span pages and the
     * cursor hands out its scratch buffer.
     */
    @ParameterizedTest
    @MethodSource("keyTypes")
    void aLastVersionMergeGetsOnlyTheLastVersionOfEachKey(RowType keyType) throws IOException {
        List<BufferTestData.Put> puts = randomPuts(keyType, new Random(keyType.asSQLString().hashCode() + 1), 3000, 300);
        try (WriteBuffer buffer = buffer(keyType, new MemoryPool(8 << 20, 256))) {
            putAll(buffer, puts);
            LastWinsMergeFunction mf = new LastWinsMergeFunction(true);
            List<KeyValue> out = drain(buffer, mf);
            assertThat(canonical(out)).isEqualTo(lastWinsModel(keyType, puts));
            assertThat(mf.added).as("one version per key").isEqualTo(out.size());
            assertThat(out.size()).as("the data has duplicate keys").isLessThan(puts.size());
        }
    }

    /**
     * Sequence numbers that do not grow in append order (not what a writer does, but what put allows) are
     * still sorted by sequence number, not by arrival.
     */
    @ParameterizedTest
    @MethodSource("keyTypes")
    void sequenceNumbersOutOfAppendOrderAreSortedBySequenceNumber(RowType keyType) throws IOException {
        List<BufferTestData.Put> puts = new ArrayList<>(randomPuts(keyType, new Random(keyType.asSQLString().hashCode() + 2), 3000, 300));
        java.util.Collections.shuffle(puts, new Random(3));
        for (boolean lastVersionOnly : new boolean[] {false, true}) {
            try (WriteBuffer buffer = buffer(keyType, new MemoryPool(8 << 20, 4096))) {
                putAll(buffer, puts);
                assertThat(canonical(drain(buffer, new LastWinsMergeFunction(lastVersionOnly))))
                        .isEqualTo(lastWinsModel(keyType, puts));
            }
        }
    }

    /**
     * The reader a flush uses reuses its key-value (and, for a last-version merge, reads the buffer in
     * place): read one at a time, its results equal the model. Small pages, so records span pages.
     */
    @ParameterizedTest
    @MethodSource("keyTypes")
    void aReaderReusingObjectsGivesTheModelReadOneAtATime(RowType keyType) throws IOException {
        List<BufferTestData.Put> puts = randomPuts(keyType, new Random(keyType.asSQLString().hashCode() + 3), 3000, 300);
        for (boolean lastVersionOnly : new boolean[] {true, false}) {
            try (WriteBuffer buffer = buffer(keyType, new MemoryPool(8 << 20, 256))) {
                putAll(buffer, puts);
                List<List<Object>> out = new ArrayList<>();
                try (RecordReader<KeyValue> reader = buffer.mergedReaderReusingObjects(
                        new LastWinsMergeFunction(lastVersionOnly))) {
                    dev.streamhouse.storage.reader.RecordIterator<KeyValue> batch;
                    while ((batch = reader.readBatch()) != null) {
                        KeyValue kv;
                        while ((kv = batch.next()) != null) {
                            out.add(List.of(
                                    canonical(dev.streamhouse.storage.data.InternalRowUtils.copyToGeneric(kv.key(), keyType)),
                                    kv.sequenceNumber(), kv.valueKind(),
                                    canonical(dev.streamhouse.storage.data.InternalRowUtils.copyToGeneric(kv.value(), valueType()))));
                        }
                        batch.releaseBatch();
                    }
                }
                assertThat(out).as("last version only: %s", lastVersionOnly).isEqualTo(lastWinsModel(keyType, puts));
            }
        }
    }

    @Test
    void emitsRetractionWhenItIsTheLatestVersion() throws IOException {
        try (WriteBuffer buffer = buffer(INT_KEY, new MemoryPool(1 << 20, 4096))) {
            buffer.put(1, RowKind.INSERT, key(1), value(1, "a", 0));
            buffer.put(2, RowKind.DELETE, key(1), value(1, "a", 0));
            buffer.put(3, RowKind.DELETE, key(2), value(2, "b", 0));
            buffer.put(4, RowKind.INSERT, key(2), value(2, "c", 0));
            buffer.put(5, RowKind.UPDATE_BEFORE, key(3), value(3, "d", 0));
            List<KeyValue> out = drain(buffer, new LastWinsMergeFunction());
            assertThat(out).extracting(KeyValue::valueKind)
                    .containsExactly(RowKind.DELETE, RowKind.INSERT, RowKind.UPDATE_BEFORE);
            assertThat(out).extracting(KeyValue::sequenceNumber).containsExactly(2L, 4L, 5L);
            assertThat(out.get(1).value().stringAt(1).toString()).isEqualTo("c");
            assertThat(out.get(0).value().rowKind()).isEqualTo(RowKind.DELETE);
        }
    }

    @Test
    void skipsKeysWhoseMergeResultIsNull() throws IOException {
        MergeFunction dropRetractions = new MergeFunction() {
            private KeyValue last;

            @Override
            public void reset() {
                last = null;
            }

            @Override
            public void add(KeyValue kv) {
                last = kv;
            }

            @Override
            public KeyValue result() {
                return last.isRetract() ? null : last;
            }
        };
        try (WriteBuffer buffer = buffer(INT_KEY, new MemoryPool(1 << 20, 4096))) {
            for (int k = 0; k < 10; k++) {
                buffer.put(k, k % 3 == 0 ? RowKind.DELETE : RowKind.INSERT, key(k), value(k, "x", k));
            }
            List<KeyValue> out = drain(buffer, dropRetractions);
            assertThat(out).extracting(kv -> kv.key().intAt(0)).containsExactly(1, 2, 4, 5, 7, 8);
        }
    }

    @Test
    void ordersVersionsByVersionOrderThenSequenceNumber() throws IOException {
        List<Long> fedSequences = new ArrayList<>();
        MergeFunction recording = new LastWinsMergeFunction() {
            @Override
            public void add(KeyValue kv) {
                fedSequences.add(kv.sequenceNumber());
                super.add(kv);
            }
        };
        Comparator<KeyValue> byUserSequence = Comparator.comparingInt(kv -> kv.value().intAt(2));
        try (WriteBuffer buffer = WriteBuffer.builder(INT_KEY, valueType(), new MemoryPool(1 << 20, 4096))
                .versionOrder(byUserSequence).build()) {
            buffer.put(10, RowKind.INSERT, key(7), value(1, "late-arrival-high", 50));
            buffer.put(11, RowKind.INSERT, key(7), value(2, "tie-a", 20));
            buffer.put(12, RowKind.INSERT, key(7), value(3, "low", 5));
            buffer.put(13, RowKind.INSERT, key(7), value(4, "tie-b", 20));
            buffer.put(14, RowKind.INSERT, key(8), value(5, "other", 1));
            List<KeyValue> out = drain(buffer, recording);
            assertThat(fedSequences).containsExactly(12L, 11L, 13L, 10L, 14L);
            assertThat(out.get(0).value().stringAt(1).toString()).isEqualTo("late-arrival-high");
        }
    }

    @Test
    void recordsSpanningPagesRoundTrip() throws IOException {
        Random random = new Random(7);
        List<BufferTestData.Put> puts = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int length = random.nextInt(4) == 0 ? 200 + random.nextInt(3000) : random.nextInt(40);
            String s = "ü".repeat(length / 2) + i;
            puts.add(new BufferTestData.Put(i, RowKind.INSERT, key(random.nextInt(120)), value(i, s, -i)));
        }
        try (WriteBuffer buffer = buffer(INT_KEY, new MemoryPool(4 << 20, 256))) {
            putAll(buffer, puts);
            assertThat(canonical(drain(buffer, new LastWinsMergeFunction()))).isEqualTo(lastWinsModel(INT_KEY, puts));
        }
    }

    @Test
    void rejectsNullKeysAndRecordsThatCanNeverFit() {
        MemoryPool pool = new MemoryPool(4 * 256, 256);
        try (WriteBuffer buffer = WriteBuffer.builder(RowType.of(STRING()), valueType(), pool).build()) {
            assertThatThrownBy(() -> buffer.put(1, RowKind.INSERT, GenericRow.of((Object) null), value(1, "", 0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Cannot buffer record with sequence number 1: primary key field 'f0' is null");
            GenericRow bigKey = GenericRow.of(BinaryString.fromString("k".repeat(300)));
            assertThatThrownBy(() -> buffer.put(2, RowKind.INSERT, bigKey, value(1, "", 0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("serialized key takes 303 bytes but must fit in one 256-byte page");
            GenericRow bigValue = value(1, "v".repeat(1000), 0);
            assertThatThrownBy(() -> buffer.put(3, RowKind.INSERT, GenericRow.of(BinaryString.fromString("k")), bigValue))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the write buffer holds only 1024 bytes; raise write-buffer-size");
            assertThat(buffer.isEmpty()).isTrue();
            assertThat(pool.usedBytes()).isZero();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void putReturnsFalseWhenFullAndLeavesTheBufferUnchanged() throws IOException {
        MemoryPool pool = new MemoryPool(8 * 256, 256);
        List<BufferTestData.Put> puts = randomPuts(INT_KEY, new Random(3), 1000, 50);
        try (WriteBuffer buffer = buffer(INT_KEY, pool)) {
            List<BufferTestData.Put> accepted = new ArrayList<>();
            int i = 0;
            for (; i < puts.size(); i++) {
                BufferTestData.Put p = puts.get(i);
                if (!buffer.put(p.seq(), p.kind(), p.key(), p.value())) {
                    break;
                }
                accepted.add(p);
                assertThat(buffer.memoryOccupancy()).isLessThanOrEqualTo(pool.totalBytes());
            }
            assertThat(i).as("the pool filled up").isLessThan(puts.size());
            assertThat(buffer.size()).isEqualTo(accepted.size());
            assertThat(pool.usedBytes()).isEqualTo(buffer.memoryOccupancy());
            assertThat(canonical(drain(buffer, new LastWinsMergeFunction()))).isEqualTo(lastWinsModel(INT_KEY, accepted));
            buffer.clear();
            assertThat(pool.usedBytes()).isZero();
            BufferTestData.Put p = puts.get(i);
            assertThat(buffer.put(p.seq(), p.kind(), p.key(), p.value())).as("after a flush the record fits").isTrue();
        }
    }

    @Test
    void rejectsPutAndClearWhileAReaderIsOpen() throws IOException {
        try (WriteBuffer buffer = buffer(INT_KEY, new MemoryPool(1 << 20, 4096))) {
            buffer.put(1, RowKind.INSERT, key(1), value(1, "a", 0));
            RecordReader<KeyValue> reader = buffer.mergedReader(new LastWinsMergeFunction());
            assertThatThrownBy(() -> buffer.put(2, RowKind.INSERT, key(2), value(2, "b", 0)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Cannot put a record into the write buffer: a reader is still open");
            assertThatThrownBy(buffer::clear).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> buffer.mergedReader(new LastWinsMergeFunction()))
                    .isInstanceOf(IllegalStateException.class);
            reader.close();
            assertThat(buffer.put(2, RowKind.INSERT, key(2), value(2, "b", 0))).isTrue();
            assertThat(drain(buffer, new LastWinsMergeFunction())).hasSize(2);
            assertThat(drain(buffer, new LastWinsMergeFunction())).as("reading does not consume").hasSize(2);
        }
    }

    @Test
    void closeReleasesPagesAndLeavesThePool() throws IOException {
        MemoryPool pool = new MemoryPool(1 << 20, 4096);
        WriteBuffer buffer = buffer(INT_KEY, pool);
        for (int k = 0; k < 1000; k++) {
            buffer.put(k, RowKind.INSERT, key(k), value(k, "x", k));
        }
        assertThat(pool.usedBytes()).isPositive();
        buffer.mergedReader(new LastWinsMergeFunction());
        buffer.close();
        buffer.close();
        assertThat(pool.usedBytes()).isZero();
        assertThatThrownBy(() -> buffer.put(1, RowKind.INSERT, key(1), value(1, "a", 0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Cannot put a record into the write buffer: it is closed");
        // A registered owner would be asked to flush; a closed one must be gone from the pool.
        pool.register(buffer);
    }

    @Test
    void buildRejectsInvalidSettings() {
        MemoryPool pool = new MemoryPool(1 << 20);
        assertThatThrownBy(() -> WriteBuffer.builder(INT_KEY, valueType(), pool).maxSpillFileHandles(1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("local-sort.max-num-file-handles is 1 but must be at least 2");
        assertThatThrownBy(() -> WriteBuffer.builder(RowType.of(ARRAY(INT())),
                valueType(), pool).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key field 'f0' has type ARRAY<INT>, which has no order");
        assertThatThrownBy(() -> WriteBuffer.builder(INT_KEY, valueType(), pool).maxSpillDiskBytes(-1).build())
                .isInstanceOf(IllegalArgumentException.class);
    }
}
