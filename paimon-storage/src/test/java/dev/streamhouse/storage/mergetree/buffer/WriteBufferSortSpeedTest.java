package dev.streamhouse.storage.mergetree.buffer;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One million small records sort in well under a few seconds on one core. The bound is loose (3 s) so
 * slow CI machines pass, yet a per-comparison deserializing sort (about 10× slower) fails it.
 */
class WriteBufferSortSpeedTest {
    private static final int RECORDS = 1_000_000;
    private static final long MAX_SORT_MILLIS = 3_000;

    static Stream<Arguments> keys() {
        Random r = new Random(1);
        int[] ints = r.ints(RECORDS).toArray();
        IntFunction<InternalRow> intKey = i -> GenericRow.of(ints[i]);
        IntFunction<InternalRow> longKey = i -> GenericRow.of((long) ints[i] * 31);
        IntFunction<InternalRow> stringKey = i -> GenericRow.of(BinaryString.fromString("user_" + (ints[i] & 0xFFFFF)));
        return Stream.of(
                Arguments.of("INT", RowType.of(INT()), intKey),
                Arguments.of("BIGINT", RowType.of(BIGINT()), longKey),
                Arguments.of("STRING with shared 5-byte prefix", RowType.of(STRING()), stringKey));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keys")
    void sortsOneMillionRecordsQuickly(String name, RowType keyType, IntFunction<InternalRow> keys) throws IOException {
        RowType valueType = RowType.of(BIGINT());
        try (WriteBuffer buffer = WriteBuffer.builder(keyType, valueType, new MemoryPool(256L << 20)).build()) {
            long start = System.nanoTime();
            for (int i = 0; i < RECORDS; i++) {
                if (!buffer.put(i, RowKind.INSERT, keys.apply(i), GenericRow.of((long) i))) {
                    throw new AssertionError("put " + i + " refused");
                }
            }
            long putMillis = (System.nanoTime() - start) / 1_000_000;
            start = System.nanoTime();
            RecordReader<KeyValue> reader = buffer.mergedReader(new LastWinsMergeFunction());
            long sortMillis = (System.nanoTime() - start) / 1_000_000;
            start = System.nanoTime();
            KeyComparator order = new KeyComparator(keyType);
            RecordIterator<KeyValue> it = reader.readBatch();
            KeyValue previous = null;
            long count = 0;
            for (KeyValue kv = it.next(); kv != null; kv = it.next()) {
                if (previous != null && order.compare(previous.key(), kv.key()) >= 0) {
                    throw new AssertionError("out of order: " + previous.key() + " then " + kv.key());
                }
                previous = kv;
                count++;
            }
            reader.close();
            long readMillis = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("write buffer, %s key, %d records: put %d ms, sort %d ms, merged read %d ms (%d keys)%n",
                    name, RECORDS, putMillis, sortMillis, readMillis, count);
            assertThat(count).isPositive();
            assertThat(sortMillis).as("sort time in ms").isLessThan(MAX_SORT_MILLIS);
        }
    }
}
