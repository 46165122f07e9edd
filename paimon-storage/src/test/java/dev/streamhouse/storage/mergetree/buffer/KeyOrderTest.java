package dev.streamhouse.storage.mergetree.buffer;

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
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP_LTZ;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The byte-level key comparator and the normalized prefix agree with {@link KeyComparator} on random
 * keys: the comparator exactly, the prefix never contradicting it (and deciding alone when it claims to).
 */
class KeyOrderTest {

    static Stream<RowType> keyTypes() {
        return Stream.of(
                RowType.of(INT()), RowType.of(BIGINT()), RowType.of(STRING()), RowType.of(CHAR(5)),
                RowType.of(INT(), STRING()), RowType.of(STRING(), INT()), RowType.of(INT(), INT()),
                RowType.of(SMALLINT(), TINYINT(), BOOLEAN(), INT()), RowType.of(INT(), BIGINT()),
                RowType.of(FLOAT()), RowType.of(DOUBLE()), RowType.of(FLOAT(), FLOAT()),
                RowType.of(DECIMAL(10, 2)), RowType.of(DECIMAL(30, 5), INT()), RowType.of(DATE(), STRING()),
                RowType.of(TIMESTAMP(3)), RowType.of(TIMESTAMP(9), INT()), RowType.of(TIMESTAMP_LTZ(6)),
                RowType.of(BYTES()), RowType.of(BINARY(4), BIGINT()), RowType.of(STRING(), STRING(), BIGINT()));
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void serializedComparatorAndPrefixAgreeWithKeyComparator(RowType keyType) {
        Random random = new Random(keyType.asSQLString().hashCode());
        KeyComparator expected = new KeyComparator(keyType);
        SerializedKeyComparator actual = new SerializedKeyComparator(keyType);
        NormalizedKeyPrefix prefix = new NormalizedKeyPrefix(keyType);
        RowSerializer serializer = new RowSerializer(keyType);
        List<GenericRow> keys = new ArrayList<>();
        List<byte[]> bytes = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            // A third of the keys repeat an earlier one, so equal keys occur for every key type.
            GenericRow key = i > 0 && random.nextInt(3) == 0
                    ? keys.get(random.nextInt(keys.size()))
                    : BufferTestData.randomKey(keyType, random, 60);
            ByteWriter out = new ByteWriter(8);
            out.writeByte(1); // keys are compared at an offset
            serializer.serialize(key, out);
            keys.add(key);
            bytes.add(Arrays.copyOf(out.buffer(), out.position()));
        }
        int equalPairs = 0;
        for (int i = 0; i < keys.size(); i++) {
            for (int j = 0; j < keys.size(); j++) {
                int want = Integer.signum(expected.compare(keys.get(i), keys.get(j)));
                int got = Integer.signum(actual.compare(bytes.get(i), 1, bytes.get(j), 1));
                if (got != want) {
                    fail("serialized compare of %s vs %s is %d, expected %d", keys.get(i), keys.get(j), got, want);
                }
                int prefixOrder = Integer.signum(Long.compareUnsigned(prefix.prefix(keys.get(i)), prefix.prefix(keys.get(j))));
                if (prefixOrder != 0 && prefixOrder != want) {
                    fail("prefix order of %s vs %s is %d, expected %d", keys.get(i), keys.get(j), prefixOrder, want);
                }
                if (prefixOrder == 0 && prefix.isDetermining() && want != 0) {
                    fail("determining prefix ties %s and %s, which differ", keys.get(i), keys.get(j));
                }
                equalPairs += want == 0 && i != j ? 1 : 0;
            }
        }
        assertThat(equalPairs).as("the data has duplicate keys").isPositive();
    }

    @Test
    void prefixDeterminesOnlyFixedKeysThatFit() {
        assertThat(new NormalizedKeyPrefix(RowType.of(INT())).isDetermining()).isTrue();
        assertThat(new NormalizedKeyPrefix(RowType.of(INT(), INT())).isDetermining()).isTrue();
        assertThat(new NormalizedKeyPrefix(RowType.of(BIGINT())).isDetermining()).isTrue();
        assertThat(new NormalizedKeyPrefix(RowType.of(DECIMAL(18, 0))).isDetermining()).isTrue();
        assertThat(new NormalizedKeyPrefix(RowType.of(TIMESTAMP(3))).isDetermining()).isTrue();
        assertThat(new NormalizedKeyPrefix(RowType.of(INT(), BIGINT())).isDetermining()).isFalse();
        assertThat(new NormalizedKeyPrefix(RowType.of(STRING())).isDetermining()).isFalse();
        assertThat(new NormalizedKeyPrefix(RowType.of(TIMESTAMP(6))).isDetermining()).isFalse();
        assertThat(new NormalizedKeyPrefix(RowType.of(DECIMAL(20, 0))).isDetermining()).isFalse();
    }
}
