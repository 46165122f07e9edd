package dev.streamhouse.storage.mergetree.lookup;

import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BOOLEAN;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.MAP;
import static dev.streamhouse.storage.types.DataTypes.ROW;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.buffer.ByteWriter;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

class LookupFileTest {
    private static final RowType KEY = RowType.of(INT());
    /** Values of every kind of type the codec handles, nested ones and NULLs included. */
    private static final RowType VALUE = RowType.of(INT(), STRING(), DECIMAL(38, 10), TIMESTAMP(9), ARRAY(STRING()),
            MAP(STRING(), INT()), ROW(FIELD(100, "a", INT()), FIELD(101, "b", STRING())), BYTES(), DOUBLE(), BOOLEAN(),
            BIGINT());
    private static final RowKind[] KINDS = RowKind.values();

    @TempDir
    Path tmp;
    private int files;

    private static LookupFileSettings settings(LookupFileType type) {
        return LookupFileSettings.defaults().withFileType(type);
    }

    /** Record number {@code i}: key {@code 2 i} (odd keys are absent), values varying with i, NULLs too. */
    private static KeyValue record(int i, Random random) {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int m = 0; m < i % 4; m++) {
            map.put(BinaryString.fromString("k" + m), m % 3 == 0 ? null : m);
        }
        GenericRow value = GenericRow.of(2 * i, i % 7 == 0 ? null : BinaryString.fromString("v" + random.nextInt()),
                Decimal.fromBigDecimal(new BigDecimal(random.nextLong()).movePointLeft(10), 38, 10),
                Timestamp.fromEpochMillis(random.nextLong() >> 20, random.nextInt(1_000_000)),
                new GenericArray(new Object[] {BinaryString.fromString("e" + i), null}), new GenericMap(map),
                i % 5 == 0 ? null : GenericRow.of(i, BinaryString.fromString("ü" + i)),
                new byte[] {(byte) i, 0, (byte) -i}, random.nextDouble(), i % 2 == 0, i % 3 == 0 ? null : (long) i);
        return new KeyValue().replace(GenericRow.of(2 * i), 1000L + random.nextInt(1000), KINDS[i % KINDS.length],
                value);
    }

    private Path newPath() {
        return tmp.resolve("f" + files++ + ".lookup");
    }

    private LookupFile write(LookupFileSettings settings, List<KeyValue> records, long expected) throws IOException {
        LookupFileWriter writer = LookupFileWriter.create(newPath(), KEY, VALUE, settings, expected);
        for (int i = 0; i < records.size(); i++) {
            writer.add(records.get(i), 10L * i);
        }
        return writer.finish();
    }

    private static List<KeyValue> records(int n, long seed) {
        Random random = new Random(seed);
        List<KeyValue> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(record(i, random));
        }
        return out;
    }

    private static void assertHoldsExactly(LookupFile file, List<KeyValue> records) throws IOException {
        BinaryRowConverter binary = new BinaryRowConverter(KEY.fieldTypes());
        for (int i = 0; i < records.size(); i++) {
            KeyValue expected = records.get(i);
            // asked as a BinaryRow, as compactions hold keys; stored keys are decoded rows
            LookupEntry got = file.lookup(binary.toBinaryRow(expected.key()));
            assertThat(got).as("key %s", expected.key()).isNotNull();
            assertThat(got.key()).isEqualTo(expected.key());
            assertThat(got.sequenceNumber()).isEqualTo(expected.sequenceNumber());
            assertThat(got.valueKind()).isEqualTo(expected.valueKind());
            assertThat(got.value()).isEqualTo(expected.value());
            assertThat(got.rowPosition()).isEqualTo(10L * i);
            assertThat(file.contains(expected.key())).isTrue();
        }
        int n = records.size();
        for (int k = -3; k <= 2 * n + 3; k += 2) {
            assertThat(file.lookup(GenericRow.of(k))).as("absent key %s", k).isNull();
            assertThat(file.contains(GenericRow.of(k))).isFalse();
        }
        assertThat(file.lookup(GenericRow.of(Integer.MIN_VALUE))).isNull();
        assertThat(file.lookup(GenericRow.of(Integer.MAX_VALUE))).isNull();
        assertThat(file.recordCount()).isEqualTo(n);
    }

    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void everyRecordRoundTripsAndAbsentKeysAreNotFound(LookupFileType type) throws IOException {
        List<KeyValue> records = records(700, 7);
        try (LookupFile file = write(settings(type).withBlockSizeBytes(512), records, records.size())) {
            assertHoldsExactly(file, records);
            assertThat(file.diskBytes()).isEqualTo(Files.size(tmp.resolve("f0.lookup")));
        }
    }

    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void withoutBloomFilterLookupsSearchTheFile(LookupFileType type) throws IOException {
        List<KeyValue> records = records(300, 8);
        try (LookupFile withBloom = write(settings(type).withBlockSizeBytes(256), records, records.size());
                LookupFile without = write(settings(type).withoutBloomFilter().withBlockSizeBytes(256), records,
                        records.size())) {
            assertHoldsExactly(without, records);
            assertThat(without.heapBytes()).isLessThan(withBloom.heapBytes());
            long before = readCount(without);
            assertThat(without.lookup(GenericRow.of(301))).isNull();
            assertThat(readCount(without) - before).as("an absent key in range is searched on disk").isPositive();
        }
    }

    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void moreRecordsThanExpectedAreStillFound(LookupFileType type) throws IOException {
        List<KeyValue> records = records(500, 9);
        try (LookupFile file = write(settings(type), records, 1)) {
            assertHoldsExactly(file, records);
        }
    }

    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void emptyFileHoldsNothing(LookupFileType type) throws IOException {
        try (LookupFile file = write(settings(type), List.of(), 0)) {
            assertThat(file.recordCount()).isZero();
            assertThat(file.lookup(GenericRow.of(0))).isNull();
            assertThat(file.contains(GenericRow.of(Integer.MIN_VALUE))).isFalse();
        }
        try (LookupFile file = write(settings(type).withoutBloomFilter(), List.of(), 0)) {
            assertThat(file.lookup(GenericRow.of(0))).isNull();
        }
    }

    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void singleRecord(LookupFileType type) throws IOException {
        List<KeyValue> records = records(1, 10);
        try (LookupFile file = write(settings(type).withoutBloomFilter(), records, 1)) {
            assertHoldsExactly(file, records);
        }
    }

    private static int entryBytes(KeyValue record) {
        ByteWriter out = new ByteWriter(64);
        new EntryCodec(KEY, RowType.of(INT(), BIGINT())).write(record, 0, out);
        return out.position();
    }

    private static List<KeyValue> fixedSizeRecords(int n) {
        List<KeyValue> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new KeyValue().replace(GenericRow.of(2 * i), i, RowKind.INSERT, GenericRow.of(2 * i, (long) i)));
        }
        return out;
    }

    /** Blocks end after the entry that reaches the block size: each size gives a known number of blocks. */
    @Test
    void blocksEndAtTheEntryThatReachesTheBlockSize() throws IOException {
        List<KeyValue> records = fixedSizeRecords(10);
        int entry = entryBytes(records.get(0));
        int[][] sizeAndBlocks = {
            {1, 10}, // every entry its own block, each larger than the block size
            {entry, 10}, // exactly one entry fills a block
            {entry + 1, 5}, // the second entry reaches it
            {2 * entry, 5}, // two entries fill it exactly
            {2 * entry + 1, 4}, // three per block: 3 + 3 + 3 + 1
            {10 * entry, 1}, // all ten fill it exactly
            {1 << 20, 1}};
        for (int[] c : sizeAndBlocks) {
            LookupFileSettings settings = settings(LookupFileType.SORT).withoutBloomFilter().withBlockSizeBytes(c[0]);
            LookupFileWriter writer = LookupFileWriter.create(newPath(), KEY, RowType.of(INT(), BIGINT()), settings,
                    records.size());
            for (int i = 0; i < records.size(); i++) {
                writer.add(records.get(i), i);
            }
            try (SortLookupFile file = (SortLookupFile) writer.finish()) {
                assertThat(file.blockCount()).as("blocks of %s bytes", c[0]).isEqualTo(c[1]);
                for (int i = 0; i < records.size(); i++) {
                    LookupEntry got = file.lookup(GenericRow.of(2 * i));
                    assertThat(got).as("key %s, blocks of %s bytes", 2 * i, c[0]).isNotNull();
                    assertThat(got.value()).isEqualTo(GenericRow.of(2 * i, (long) i));
                    assertThat(got.rowPosition()).isEqualTo(i);
                    // keys between two blocks, before the first and after the last
                    assertThat(file.lookup(GenericRow.of(2 * i - 1))).isNull();
                    assertThat(file.lookup(GenericRow.of(2 * i + 1))).isNull();
                }
            }
        }
    }

    @Test
    void aPresentKeyReadsOneBlockAndMostAbsentKeysReadNothing() throws IOException {
        List<KeyValue> records = fixedSizeRecords(4000);
        LookupFileSettings settings = settings(LookupFileType.SORT).withBlockSizeBytes(1024).withBloomFilterFpp(0.05);
        LookupFileWriter writer = LookupFileWriter.create(newPath(), KEY, RowType.of(INT(), BIGINT()), settings,
                records.size());
        for (int i = 0; i < records.size(); i++) {
            writer.add(records.get(i), i);
        }
        try (SortLookupFile file = (SortLookupFile) writer.finish()) {
            assertThat(file.blockCount()).isGreaterThan(100);
            for (int i = 0; i < records.size(); i += 97) {
                long before = file.readCount();
                assertThat(file.lookup(GenericRow.of(2 * i))).isNotNull();
                assertThat(file.readCount() - before).isEqualTo(1);
            }
            long before = file.readCount();
            int absent = 0;
            for (int k = 1; k < 2 * records.size(); k += 2) {
                assertThat(file.lookup(GenericRow.of(k))).isNull();
                absent++;
            }
            // false positives read one block each: about 5% of the absent keys, 8% allowed
            assertThat(file.readCount() - before).isLessThan((long) (absent * 0.08));
        }
    }

    @Test
    void hashFileReadsNothingForMostAbsentKeys() throws IOException {
        List<KeyValue> records = fixedSizeRecords(4000);
        LookupFileWriter writer = LookupFileWriter.create(newPath(), KEY, RowType.of(INT(), BIGINT()),
                settings(LookupFileType.HASH), records.size());
        for (int i = 0; i < records.size(); i++) {
            writer.add(records.get(i), i);
        }
        try (HashLookupFile file = (HashLookupFile) writer.finish()) {
            long before = file.readCount();
            for (int k = 1; k < 2 * records.size(); k += 2) {
                assertThat(file.lookup(GenericRow.of(k))).isNull();
            }
            assertThat(file.readCount() - before).isLessThan((long) (records.size() * 0.08 * 2));
            assertThat(file.heapBytes()).as("only the bloom filter").isLessThan(4000);
        }
    }

    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void keysOutOfOrderOrRepeatedAreRefusedAndAbortDeletesThePartialFile(LookupFileType type) throws IOException {
        List<KeyValue> records = fixedSizeRecords(50);
        for (KeyValue wrong : List.of(records.get(20), records.get(3))) {
            Path path = newPath();
            LookupFileWriter writer = LookupFileWriter.create(path, KEY, RowType.of(INT(), BIGINT()),
                    settings(type).withBlockSizeBytes(64), 50);
            for (int i = 0; i <= 20; i++) {
                writer.add(records.get(i), i);
            }
            assertThatThrownBy(() -> writer.add(wrong, 21))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("key " + wrong.key())
                    .hasMessageContaining("ascending order");
            assertThat(path).exists();
            writer.abort();
            assertThat(path).doesNotExist();
            writer.abort();
            assertThatThrownBy(() -> writer.add(records.get(30), 22)).isInstanceOf(IllegalStateException.class);
        }
    }

    /** One file shared by several threads (compactions of one bucket and, later, readers). */
    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void concurrentLookupsOfOneFileAllFindTheirRecords(LookupFileType type) throws Exception {
        List<KeyValue> records = records(400, 12);
        try (LookupFile file = write(settings(type).withBlockSizeBytes(512), records, records.size())) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<List<String>>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int first = t;
                    results.add(pool.submit(() -> {
                        List<String> wrong = new ArrayList<>();
                        for (int round = 0; round < 5; round++) {
                            for (int i = first; i < records.size(); i += 4) {
                                LookupEntry got = file.lookup(records.get(i).key());
                                if (got == null || !got.value().equals(records.get(i).value())
                                        || got.rowPosition() != 10L * i) {
                                    wrong.add(i + ": " + got);
                                }
                                if (file.lookup(GenericRow.of(2 * i + 1)) != null) {
                                    wrong.add("absent key " + (2 * i + 1));
                                }
                            }
                        }
                        return wrong;
                    }));
                }
                for (Future<List<String>> result : results) {
                    assertThat(result.get()).isEmpty();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void lookupsOfAClosedFileFail(LookupFileType type) throws IOException {
        LookupFile file = write(settings(type).withoutBloomFilter(), records(10, 11), 10);
        file.close();
        assertThatThrownBy(() -> file.lookup(GenericRow.of(2))).isInstanceOf(IOException.class);
    }

    /** NaN keys of any bit pattern are one key (as the comparator has it), but 0.0 and -0.0 are two. */
    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void floatingPointKeysFollowTheComparator(LookupFileType type) throws IOException {
        RowType keyType = RowType.of(DOUBLE());
        double otherNaN = Double.longBitsToDouble(0x7ff8000000000abcL);
        assertThat(Double.doubleToRawLongBits(otherNaN)).isNotEqualTo(Double.doubleToRawLongBits(Double.NaN));
        LookupFileWriter writer = LookupFileWriter.create(newPath(), keyType, RowType.of(INT()), settings(type), 4);
        double[] keys = {Double.NEGATIVE_INFINITY, -0.0, 0.0, Double.NaN};
        for (int i = 0; i < keys.length; i++) {
            writer.add(new KeyValue().replace(GenericRow.of(keys[i]), i, RowKind.INSERT, GenericRow.of(i)), i);
        }
        try (LookupFile file = writer.finish()) {
            assertThat(file.lookup(GenericRow.of(-0.0)).value()).isEqualTo(GenericRow.of(1));
            assertThat(file.lookup(GenericRow.of(0.0)).value()).isEqualTo(GenericRow.of(2));
            assertThat(file.lookup(GenericRow.of(otherNaN)).value()).isEqualTo(GenericRow.of(3));
            assertThat(file.lookup(GenericRow.of(1.0))).isNull();
        }
    }

    /** Keys of several columns, asked as BinaryRows and as GenericRows. */
    @ParameterizedTest
    @EnumSource(LookupFileType.class)
    void compositeKeys(LookupFileType type) throws IOException {
        RowType keyType = RowType.of(STRING(), BIGINT());
        List<InternalRow> keys = new ArrayList<>();
        for (String s : new String[] {"", "a", "a\u0000", "ab", "b", "ü", "日本"}) {
            for (long n : new long[] {Long.MIN_VALUE, -1, 0, 7}) {
                keys.add(GenericRow.of(BinaryString.fromString(s), n));
            }
        }
        LookupFileWriter writer = LookupFileWriter.create(newPath(), keyType, RowType.of(INT()),
                settings(type).withBlockSizeBytes(40), keys.size());
        for (int i = 0; i < keys.size(); i++) {
            writer.add(new KeyValue().replace(keys.get(i), i, RowKind.INSERT, GenericRow.of(i)), i);
        }
        BinaryRowConverter binary = new BinaryRowConverter(keyType.fieldTypes());
        try (LookupFile file = writer.finish()) {
            for (int i = 0; i < keys.size(); i++) {
                assertThat(file.lookup(binary.toBinaryRow(keys.get(i))).rowPosition()).isEqualTo(i);
            }
            assertThat(file.lookup(GenericRow.of(BinaryString.fromString("a"), 1L))).isNull();
            assertThat(file.lookup(GenericRow.of(BinaryString.fromString("aa"), 0L))).isNull();
            assertThat(file.lookup(GenericRow.of(BinaryString.fromString("日"), 0L))).isNull();
        }
    }

    private static long readCount(LookupFile file) {
        return file instanceof SortLookupFile s ? s.readCount() : ((HashLookupFile) file).readCount();
    }
}
