package dev.streamhouse.storage.mergetree.lookup;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.schema.Schema;

import java.math.BigDecimal;
import java.util.Random;

/**
 * Tables of the lookup tests, one per kind of primary key. Key number {@code i} maps to a key row and a
 * value row (all columns, the key columns equal to the key); the rows' order need not follow {@code i}:
 * tests sort by the key comparator.
 */
enum KeyShape {
    /** {@code id INT} key; values: id, name STRING, amount BIGINT. */
    INT_KEY {
        @Override
        Schema schema() {
            return Schema.newBuilder().column("id", INT()).column("name", STRING()).column("amount", BIGINT())
                    .primaryKey("id").build();
        }

        @Override
        GenericRow key(int i) {
            return GenericRow.of(i * 3 - 500);
        }

        @Override
        GenericRow value(int i, Random random) {
            return GenericRow.of(i * 3 - 500, random.nextInt(5) == 0 ? null : str("n" + random.nextInt(1000)),
                    random.nextInt(4) == 0 ? null : random.nextLong());
        }
    },
    /** {@code (region STRING, id BIGINT)} key, the string first; values: region, v INT, id, note STRING. */
    COMPOSITE_STRING_KEY {
        @Override
        Schema schema() {
            return Schema.newBuilder().column("region", STRING()).column("v", INT()).column("id", BIGINT())
                    .column("note", STRING()).primaryKey("region", "id").build();
        }

        @Override
        GenericRow key(int i) {
            return GenericRow.of(region(i), id(i));
        }

        private BinaryString region(int i) {
            // multi-byte and prefix-sharing strings: "ü" sorts after ASCII bytewise
            return str(new String[] {"", "a", "ab", "ü", "日本"}[i % 5] + (i / 50));
        }

        private long id(int i) {
            return (i / 5) % 10 * 1_000_000_007L - 3;
        }

        @Override
        GenericRow value(int i, Random random) {
            return GenericRow.of(region(i), random.nextInt(), id(i),
                    random.nextInt(3) == 0 ? null : str("x".repeat(random.nextInt(40))));
        }
    },
    /** {@code (d DECIMAL(25, 3), ts TIMESTAMP(6))} key: a big decimal and a sub-millisecond timestamp. */
    DECIMAL_TIMESTAMP_KEY {
        @Override
        Schema schema() {
            return Schema.newBuilder().column("d", DECIMAL(25, 3)).column("ts", TIMESTAMP(6))
                    .column("x", DOUBLE()).primaryKey("d", "ts").build();
        }

        @Override
        GenericRow key(int i) {
            return GenericRow.of(decimal(i), timestamp(i));
        }

        private Decimal decimal(int i) {
            BigDecimal step = new BigDecimal("123456789012345678.125");
            return Decimal.fromBigDecimal(step.multiply(BigDecimal.valueOf(i / 3 - 20)), 25, 3);
        }

        private Timestamp timestamp(int i) {
            return Timestamp.fromEpochMillis(1_700_000_000_000L + i % 3, (i % 2) * 1000);
        }

        @Override
        GenericRow value(int i, Random random) {
            return GenericRow.of(decimal(i), timestamp(i), random.nextInt(4) == 0 ? null : random.nextDouble());
        }
    };

    abstract Schema schema();

    abstract GenericRow key(int i);

    abstract GenericRow value(int i, Random random);

    static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }
}
