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
 * One million small records in one write buffer come out in strict key order, one per distinct key
 * (the last version wins). How fast they sort is measured by {@code bin/bench}, not here.
 */
class WriteBufferMillionRecordsTest {
    private static final int RECORDS = 1_000_000;

    static Stream<Arguments> keys() {
        Random r = new Random(1);
        int[] ints = r.ints(RECORDS).toArray();
        IntFunction<InternalRow> intKey = i -> GenericRow.of(ints[i]);
        IntFunction<InternalRow> longKey = i -> GenericRow.of((long) ints[i] * 31);
        IntFunction<InternalRow> stringKey = i -> GenericRow.of(BinaryString.fromString("user_" + (ints[i] & 0xFFFFF)));
        long distinctInts = java.util.Arrays.stream(ints).distinct().count();
        long distinctStrings = java.util.Arrays.stream(ints).map(v -> v & 0xFFFFF).distinct().count();
        return Stream.of(
                Arguments.of("INT", RowType.of(INT()), intKey, distinctInts),
                Arguments.of("BIGINT", RowType.of(BIGINT()), longKey, distinctInts),
                Arguments.of("STRING with shared 5-byte prefix", RowType.of(STRING()), stringKey, distinctStrings));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keys")
    void mergesOneMillionRecordsInKeyOrder(String name, RowType keyType, IntFunction<InternalRow> keys,
            long distinctKeys) throws IOException {
        RowType valueType = RowType.of(BIGINT());
        try (WriteBuffer buffer = WriteBuffer.builder(keyType, valueType, new MemoryPool(256L << 20)).build()) {
            for (int i = 0; i < RECORDS; i++) {
                if (!buffer.put(i, RowKind.INSERT, keys.apply(i), GenericRow.of((long) i))) {
                    throw new AssertionError("put " + i + " refused");
                }
            }
            RecordReader<KeyValue> reader = buffer.mergedReader(new LastWinsMergeFunction());
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
            assertThat(count).as("one merged version per distinct %s key", name).isEqualTo(distinctKeys);
        }
    }
}
