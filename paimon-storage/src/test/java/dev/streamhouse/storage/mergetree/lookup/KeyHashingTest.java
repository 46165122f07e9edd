package dev.streamhouse.storage.mergetree.lookup;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BINARY;
import static dev.streamhouse.storage.types.DataTypes.BOOLEAN;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.CHAR;
import static dev.streamhouse.storage.types.DataTypes.DATE;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.FLOAT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.SMALLINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIME;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP_LTZ;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.mergetree.buffer.ByteReader;
import dev.streamhouse.storage.mergetree.buffer.ByteWriter;
import dev.streamhouse.storage.mergetree.buffer.RowSerializer;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Keys as lookup files see them: serialized with {@link RowSerializer} and hashed with {@link KeyHasher}.
 * Equal keys must hash alike whatever row class holds them; their serialized bytes are equal too, except
 * for NaNs of different bit patterns, which compare equal: so lookups compare decoded keys, never bytes.
 */
class KeyHashingTest {
    /** Every orderable type a key column may have. */
    private static final RowType KEY = RowType.of(BOOLEAN(), TINYINT(), SMALLINT(), INT(), BIGINT(), FLOAT(), DOUBLE(),
            CHAR(3), STRING(), BINARY(2), BYTES(), DECIMAL(10, 2), DECIMAL(38, 10), DATE(), TIME(3), TIMESTAMP(3),
            TIMESTAMP(9), TIMESTAMP_LTZ(6));

    private static GenericRow key(int i) {
        return GenericRow.of(i % 2 == 0, (byte) i, (short) (i * 31), i * 7919, (long) i << 33, i * 0.5f, i * -0.25,
                BinaryString.fromString("c" + (i % 10)), BinaryString.fromString("ü-" + i), new byte[] {(byte) i, 1},
                new byte[i % 5], Decimal.fromUnscaledLong(i * 101L, 10, 2),
                Decimal.fromBigDecimal(new BigDecimal("-12345678901234567890.0123456789").add(BigDecimal.valueOf(i)),
                        38, 10),
                i, i * 1000, Timestamp.fromEpochMillis(i * 999L), Timestamp.fromEpochMillis(i * 7L, i * 13),
                Timestamp.fromEpochMillis(-i * 11L, i % 1000 * 1000));
    }

    private static byte[] serialize(RowSerializer serializer, dev.streamhouse.storage.data.InternalRow row) {
        ByteWriter out = new ByteWriter(64);
        serializer.serialize(row, out);
        return Arrays.copyOf(out.buffer(), out.position());
    }

    @Test
    void equalKeysInDifferentRowClassesHashAndSerializeAlikeAndRoundTrip() {
        KeyHasher hasher = new KeyHasher(KEY);
        RowSerializer serializer = new RowSerializer(KEY);
        BinaryRowConverter binary = new BinaryRowConverter(KEY.fieldTypes());
        KeyRowComparator comparator = new KeyRowComparator(KEY);
        Set<Long> hashes = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            GenericRow generic = key(i);
            BinaryRow asBinary = binary.toBinaryRow(generic);
            byte[] bytes = serialize(serializer, generic);
            GenericRow decoded = serializer.deserialize(new ByteReader(bytes, 0));

            assertThat(hasher.hash(asBinary)).isEqualTo(hasher.hash(generic)).isEqualTo(hasher.hash(decoded));
            assertThat(serialize(serializer, asBinary)).isEqualTo(bytes);
            assertThat(serialize(serializer, decoded)).isEqualTo(bytes);
            assertThat(comparator.compare(decoded, asBinary)).isZero();
            hashes.add(hasher.hash(generic));
        }
        assertThat(hashes).as("distinct keys, distinct hashes").hasSize(200);
    }

    @Test
    void nansOfAnyBitPatternHashAlikeThoughTheirBytesDiffer() {
        RowType type = RowType.of(FLOAT(), DOUBLE());
        GenericRow canonical = GenericRow.of(Float.NaN, Double.NaN);
        GenericRow other = GenericRow.of(Float.intBitsToFloat(0x7fc00abc),
                Double.longBitsToDouble(0xfff8000000000001L));
        assertThat(new KeyRowComparator(type).compare(canonical, other)).isZero();
        assertThat(new KeyHasher(type).hash(other)).isEqualTo(new KeyHasher(type).hash(canonical));
        RowSerializer serializer = new RowSerializer(type);
        assertThat(serialize(serializer, other)).isNotEqualTo(serialize(serializer, canonical));

        GenericRow zero = GenericRow.of(0.0f, 0.0);
        GenericRow negativeZero = GenericRow.of(-0.0f, -0.0);
        assertThat(new KeyRowComparator(type).compare(zero, negativeZero)).isNotZero();
        assertThat(new KeyHasher(type).hash(zero)).isNotEqualTo(new KeyHasher(type).hash(negativeZero));
    }

    @Test
    void bloomFilterHasNoFalseNegativesAndAboutTheAskedFalsePositiveRate() {
        KeyHasher hasher = new KeyHasher(RowType.of(BIGINT()));
        for (double fpp : new double[] {0.05, 0.01}) {
            KeyBloomFilter bloom = KeyBloomFilter.forExpectedKeys(20_000, fpp);
            for (long k = 0; k < 20_000; k++) {
                bloom.add(hasher.hash(GenericRow.of(k * 2)));
            }
            for (long k = 0; k < 20_000; k++) {
                assertThat(bloom.mightContain(hasher.hash(GenericRow.of(k * 2)))).isTrue();
            }
            int falsePositives = 0;
            for (long k = 0; k < 20_000; k++) {
                if (bloom.mightContain(hasher.hash(GenericRow.of(k * 2 + 1)))) {
                    falsePositives++;
                }
            }
            assertThat(falsePositives / 20_000.0).as("false-positive rate at fpp %s", fpp).isLessThan(fpp * 1.5);
            // m = -n ln p / ln2^2 bits
            long expectedBytes = (long) Math.ceil(-20_000 * Math.log(fpp) / (Math.log(2) * Math.log(2)) / 8);
            assertThat(bloom.heapBytes()).isBetween(expectedBytes, expectedBytes + 8);
        }
    }
}
