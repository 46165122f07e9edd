package dev.streamhouse.storage.data;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.utils.MurmurHash;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The default bucket function's hash (docs/format.md §7.3) against the vectors of docs/format.md §13.1: the hash of
 * the bucket-key BinaryRow and {@code Math.abs(hash % N)}.
 */
class BucketHashTest {

    private static final int[] INT_TABLE_BUCKET_COUNTS = {1, 2, 3, 4, 8, 10, 16};

    /** A key of §13.1 with its hash and expected bucket per bucket count. */
    record KeyVector(String name, List<DataType> types, Object[] values, int hash, Map<Integer, Integer> buckets) {
        @Override
        public String toString() {
            return name;
        }
    }

    static KeyVector intKey(int value, int hash, int... bucketsPerCount) {
        Map<Integer, Integer> buckets = new LinkedHashMap<>();
        for (int i = 0; i < INT_TABLE_BUCKET_COUNTS.length; i++) {
            buckets.put(INT_TABLE_BUCKET_COUNTS[i], bucketsPerCount[i]);
        }
        return new KeyVector("INT " + value, List.of(INT()), new Object[] {value}, hash, buckets);
    }

    static KeyVector key(String name, List<DataType> types, Object[] values, int hash, Integer bucketsOf4, Integer bucketsOf10) {
        Map<Integer, Integer> buckets = new LinkedHashMap<>();
        buckets.put(4, bucketsOf4);
        if (bucketsOf10 != null) {
            buckets.put(10, bucketsOf10);
        }
        return new KeyVector(name, types, values, hash, buckets);
    }

    static Object[] values(Object... values) {
        return values;
    }

    static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    static Stream<KeyVector> keyVectors() {
        return Stream.of(
                intKey(0, -300363099, 0, 1, 0, 3, 3, 9, 11),
                intKey(1, 1465514398, 0, 0, 1, 2, 6, 8, 14),
                intKey(2, 1340390384, 0, 0, 2, 0, 0, 4, 0),
                intKey(3, -771300025, 0, 1, 1, 1, 1, 5, 9),
                intKey(4, 1447522506, 0, 0, 0, 2, 2, 6, 10),
                intKey(5, 260196596, 0, 0, 2, 0, 4, 6, 4),
                intKey(100, 694654213, 0, 1, 1, 1, 5, 3, 5),
                intKey(-1, 1133687267, 0, 1, 2, 3, 3, 7, 3),
                intKey(123456789, -1751827701, 0, 1, 0, 1, 5, 1, 5),
                intKey(Integer.MIN_VALUE, 916225219, 0, 1, 1, 3, 3, 9, 3),
                key("BIGINT 1", List.of(BIGINT()), values(1L), 1465514398, 2, 8),
                key("BIGINT 42", List.of(BIGINT()), values(42L), 907821237, 1, 7),
                key("BIGINT 10000000000", List.of(BIGINT()), values(10_000_000_000L), 1891290426, 2, 6),
                key("STRING ''", List.of(STRING()), values(str("")), 302122119, 3, 9),
                key("STRING 'a'", List.of(STRING()), values(str("a")), 943281246, 2, 6),
                key("STRING 'abc'", List.of(STRING()), values(str("abc")), -101922419, 3, 9),
                key("STRING '1234567'", List.of(STRING()), values(str("1234567")), 199144172, 0, 2),
                key("STRING '12345678'", List.of(STRING()), values(str("12345678")), -391021801, 1, 1),
                key("STRING 'hello world!'", List.of(STRING()), values(str("hello world!")), 609810467, 3, 7),
                key("STRING 'été'", List.of(STRING()), values(str("été")), 806195846, 2, 6),
                key("(INT 7, STRING 'x')", List.of(INT(), STRING()), values(7, str("x")), -1252423430, 2, 0),
                key("(STRING 'abcdefghij', BIGINT 5)", List.of(STRING(), BIGINT()), values(str("abcdefghij"), 5L),
                        1400535215, 3, null),
                key("nullable INT NULL", List.of(INT()), values((Object) null), -1748325344, 0, null));
    }

    static int bucket(BinaryRow key, int numBuckets) {
        return Math.abs(key.formatHash() % numBuckets);
    }

    static BinaryRow keyRow(KeyVector v) {
        return new BinaryRowConverter(v.types()).toBinaryRow(v.values());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keyVectors")
    void hashOfTheKeyRowMatchesPaimon(KeyVector v) {
        assertThat(keyRow(v).formatHash()).isEqualTo(v.hash());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keyVectors")
    void bucketsMatchPaimonForEveryListedBucketCount(KeyVector v) {
        BinaryRow key = keyRow(v);
        v.buckets().forEach((numBuckets, expected) ->
                assertThat(bucket(key, numBuckets)).as("N=%d", numBuckets).isEqualTo(expected));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keyVectors")
    void hashIsMurmurOverTheWholeRowBytesWithSeed42(KeyVector v) {
        byte[] bytes = keyRow(v).bytes();

        assertThat(MurmurHash.hashBytesByWords(bytes, 0, bytes.length, 42)).isEqualTo(v.hash());
        assertThat(MurmurHash.hashBytesByWords(bytes, 0, bytes.length, 43)).isNotEqualTo(v.hash());
    }

    @Test
    void workedExampleOfFormatSection73() {
        BinaryRow key = new BinaryRowConverter(List.of(INT())).toBinaryRow(new Object[] {1});

        assertThat(key.sizeInBytes()).isEqualTo(16);
        assertThat(key.formatHash()).isEqualTo(1465514398);
        assertThat(1465514398 % 4).isEqualTo(2);
        assertThat(bucket(key, 4)).isEqualTo(2);
    }

    @Test
    void negativeHashesUseTheRemainderNotFloorMod() {
        // INT 0 hashes to -300363099: -300363099 % 10 = -9 -> 9, whereas floorMod would give 1.
        BinaryRow key = new BinaryRowConverter(List.of(INT())).toBinaryRow(new Object[] {0});

        assertThat(bucket(key, 10)).isEqualTo(9);
        assertThat(Math.floorMod(key.formatHash(), 10)).isEqualTo(1);
    }

    @Test
    void murmurRejectsLengthsThatAreNotWholeWords() {
        assertThatThrownBy(() -> MurmurHash.hashBytesByWords(new byte[6], 0, 6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multiple of 4");
    }

    @Test
    void murmurHashesTheGivenRangeOnly() {
        byte[] row = new BinaryRowConverter(List.of(INT())).toBinaryRow(new Object[] {1}).bytes();
        byte[] padded = new byte[row.length + 8];
        System.arraycopy(row, 0, padded, 4, row.length);
        padded[0] = 0x7f;
        padded[padded.length - 1] = 0x7f;

        assertThat(MurmurHash.hashBytesByWords(padded, 4, row.length)).isEqualTo(1465514398);
    }

    // ---- table-level checks of §13.1 that are pure hash facts ----

    @Test
    void pkTableBucketsIgnoreThePartitionAndTheRowKind() {
        // PK (dt STRING, id INT), partition dt, bucket = 4: the bucket key is the trimmed primary key (id).
        BinaryRowConverter bucketKey = new BinaryRowConverter(List.of(INT().notNull()), new int[] {1});
        int[] ids = {0, 1, 2, 3, 4, 5, 100};
        int[] expectedBuckets = {3, 2, 0, 1, 2, 0, 1};

        for (int i = 0; i < ids.length; i++) {
            GenericRow insert = GenericRow.of(str("2024-01-01"), ids[i]);
            GenericRow deleteInOtherPartition = GenericRow.ofKind(RowKind.DELETE, str("2024-01-02"), ids[i]);

            assertThat(bucket(bucketKey.toBinaryRow(insert), 4)).as("id %d", ids[i]).isEqualTo(expectedBuckets[i]);
            assertThat(bucket(bucketKey.toBinaryRow(deleteInOtherPartition), 4))
                    .as("-D of id %d", ids[i]).isEqualTo(expectedBuckets[i]);
        }
    }

    @Test
    void appendTableWithIntBucketKeyAndThreeBuckets() {
        BinaryRowConverter key = new BinaryRowConverter(List.of(INT()));
        int[][] valueAndBucket = {{0, 0}, {4, 0}, {1, 1}, {3, 1}, {2, 2}, {5, 2}};

        for (int[] vb : valueAndBucket) {
            assertThat(bucket(key.toBinaryRow(new Object[] {vb[0]}), 3)).as("a=%d", vb[0]).isEqualTo(vb[1]);
        }
    }

    @Test
    void appendTableWithStringBucketKeyAndEightBuckets() {
        BinaryRowConverter key = new BinaryRowConverter(List.of(STRING()));
        Map<String, Integer> expected = Map.of("a", 6, "b", 5, "hello", 2, "hello world!", 3);

        expected.forEach((b, bucket) ->
                assertThat(bucket(key.toBinaryRow(new Object[] {str(b)}), 8)).as("b='%s'", b).isEqualTo(bucket));
    }
}
