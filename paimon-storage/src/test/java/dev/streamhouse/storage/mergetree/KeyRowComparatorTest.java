package dev.streamhouse.storage.mergetree;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BOOLEAN;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.DATE;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.FLOAT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.SMALLINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIME;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The unboxed comparator agrees with {@link KeyComparator} on GenericRows, BinaryRows and mixes. */
class KeyRowComparatorTest {
    private static final List<DataType> TYPES = List.of(BOOLEAN(), TINYINT(), SMALLINT(), INT(), BIGINT(), FLOAT(),
            DOUBLE(), DATE(), TIME(), STRING(), BYTES(), DECIMAL(10, 2), DECIMAL(38, 10), TIMESTAMP(3), TIMESTAMP(9));

    private static Object randomValue(DataType type, Random r) {
        if (r.nextInt(8) == 0) {
            return null;
        }
        int small = r.nextInt(7) - 3;
        switch (type.root()) {
            case BOOLEAN:
                return r.nextBoolean();
            case TINYINT:
                return (byte) (small * 40);
            case SMALLINT:
                return (short) (small * 10000);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return small * 1_000_000;
            case BIGINT:
                return small * 4_000_000_000L;
            case FLOAT:
                return small == 0 && r.nextBoolean() ? -0.0f : small / 2.0f;
            case DOUBLE:
                return small * 1.5e300;
            case VARCHAR:
                return BinaryString.fromString(new String[] {"", "a", "ab", "b", "\u00e9", "abcdefghij", "z"}[small + 3]);
            case VARBINARY:
                return new byte[][] {{}, {0}, {0, 1}, {(byte) 0x80}, {(byte) 0xff}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {127}}[small + 3];
            case DECIMAL:
                DataType t = type;
                int precision = ((dev.streamhouse.storage.types.DecimalType) t).precision();
                int scale = ((dev.streamhouse.storage.types.DecimalType) t).scale();
                return Decimal.fromBigDecimal(new BigDecimal(small * 12345).movePointLeft(2), precision, scale);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return Timestamp.fromEpochMillis(small * 1000L, r.nextInt(2) * 500);
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }

    @Test
    void agreesWithKeyComparatorOnRandomRows() {
        Random random = new Random(1);
        List<DataField> fields = new ArrayList<>();
        for (int i = 0; i < TYPES.size(); i++) {
            fields.add(FIELD(i, "f" + i, TYPES.get(i)));
        }
        for (int round = 0; round < 40; round++) {
            // a random selection and order of 1..3 fields, so each type gets to decide
            List<DataField> picked = new ArrayList<>();
            int n = 1 + random.nextInt(3);
            for (int i = 0; i < n; i++) {
                DataField f = fields.get(random.nextInt(fields.size()));
                picked.add(FIELD(i, "k" + i, f.type()));
            }
            RowType type = new RowType(picked);
            KeyComparator expected = new KeyComparator(type);
            KeyRowComparator actual = new KeyRowComparator(type);
            BinaryRowConverter toBinary = new BinaryRowConverter(type.fieldTypes());
            List<InternalRow> rows = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                Object[] values = new Object[n];
                for (int j = 0; j < n; j++) {
                    values[j] = randomValue(type.typeAt(j), random);
                }
                GenericRow g = GenericRow.of(values);
                rows.add(g);
                rows.add(toBinary.toBinaryRow(g));
            }
            for (InternalRow a : rows) {
                for (InternalRow b : rows) {
                    assertThat(Integer.signum(actual.compare(a, b)))
                            .as("%s vs %s as %s", a, b, type)
                            .isEqualTo(Integer.signum(expected.compare(a, b)));
                }
            }
        }
    }

    @Test
    void comparesSelectedPositions() {
        RowType type = new RowType(List.of(FIELD(0, "x", INT()), FIELD(1, "y", STRING()), FIELD(2, "z", INT())));
        KeyRowComparator byZThenX = new KeyRowComparator(type, new int[] {2, 0});
        GenericRow a = GenericRow.of(5, BinaryString.fromString("q"), 1);
        GenericRow b = GenericRow.of(1, BinaryString.fromString("a"), 2);
        GenericRow c = GenericRow.of(0, BinaryString.fromString("z"), 1);
        assertThat(byZThenX.compare(a, b)).isNegative();
        assertThat(byZThenX.compare(a, c)).isPositive();
        assertThat(byZThenX.compare(a, GenericRow.of(5, null, 1))).isZero();
    }
}
