package dev.streamhouse.e2e.oracle;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Deterministic canonical test rows for two wide tables, plus their neutral descriptions so both
 * implementations create the same tables. Row {@code id} is always the first column and row
 * {@code i}'s values depend only on {@code i}, so rows can be generated commit by commit
 * ({@code allTypesRows(0, 40)}, {@code allTypesRows(40, 40)}, ...) and still be reproduced.
 *
 * <p>Values respect their type: timestamps carry no digits beyond their precision, TIME values are
 * whole seconds (TIME = TIME(0)), CHAR(5) and BINARY(4) values have exactly their length (CHAR values
 * with trailing spaces included), DECIMALs have their column's scale. Strings include non-ASCII and
 * 4-byte UTF-8 characters; dates and timestamps include values before 1970. Float/double values are
 * finite (no NaN or infinity).
 */
public final class TestData {
    private TestData() {}

    // ---- all types -----------------------------------------------------------------------------

    /** Partition values of {@code p_str}: cycled by {@code id % 5}; includes escaping cases, '' and NULL. */
    public static final List<String> P_STR_VALUES = Arrays.asList("a/b=c d%", "", null, "plain", "naïve:#?");

    /** Partition values of {@code p_date}: cycled by {@code (id / 5) % 4}; includes NULL and the epoch. */
    public static final List<LocalDate> P_DATE_VALUES =
            Arrays.asList(LocalDate.of(2024, 1, 2), LocalDate.of(1970, 1, 1), null, LocalDate.of(1969, 12, 31));

    /** The all-types columns: {@code id INT NOT NULL}, one column per type, then {@code p_str}, {@code p_date}. */
    public static List<TableSpec.Column> allTypesColumns() {
        return columns(
                "id", "INT NOT NULL",
                "c_boolean", "BOOLEAN",
                "c_tinyint", "TINYINT",
                "c_smallint", "SMALLINT",
                "c_int", "INT",
                "c_bigint", "BIGINT",
                "c_float", "FLOAT",
                "c_double", "DOUBLE",
                "c_dec9", "DECIMAL(9, 2)",
                "c_dec18", "DECIMAL(18, 4)",
                "c_dec38", "DECIMAL(38, 10)",
                "c_char", "CHAR(5)",
                "c_varchar", "VARCHAR(20)",
                "c_string", "STRING",
                "c_binary", "BINARY(4)",
                "c_varbinary", "VARBINARY(10)",
                "c_bytes", "BYTES",
                "c_date", "DATE",
                "c_time", "TIME",
                "c_ts3", "TIMESTAMP(3)",
                "c_ts6", "TIMESTAMP(6)",
                "c_ts9", "TIMESTAMP(9)",
                "c_ltz3", "TIMESTAMP(3) WITH LOCAL TIME ZONE",
                "c_ltz6", "TIMESTAMP(6) WITH LOCAL TIME ZONE",
                "p_str", "STRING",
                "p_date", "DATE");
    }

    /** The all-types table, partitioned by {@code (p_str, p_date)}, no primary key, no options. */
    public static TableSpec allTypesTable() {
        return TableSpec.of(allTypesColumns()).withPartitionKeys("p_str", "p_date");
    }

    /** Rows {@code fromId .. fromId+count-1} of the all-types table. */
    public static List<CanonicalRow> allTypesRows(int fromId, int count) {
        List<CanonicalRow> rows = new ArrayList<>(count);
        for (int id = fromId; id < fromId + count; id++) {
            rows.add(allTypesRow(id));
        }
        return rows;
    }

    /** Row {@code id} of the all-types table. Every nullable non-partition column is NULL in some rows. */
    public static CanonicalRow allTypesRow(int id) {
        SplittableRandom rnd = new SplittableRandom(0x5EEDL * 1_000_003L + id);
        List<Object> v = new ArrayList<>();
        v.add(id);
        v.add(id % 2 == 0);
        v.add(id % 13 == 1 ? Byte.MIN_VALUE : (byte) rnd.nextInt(-128, 128));
        v.add(id % 13 == 2 ? Short.MAX_VALUE : (short) rnd.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1));
        v.add(id % 13 == 3 ? Integer.MIN_VALUE : rnd.nextInt());
        v.add(id % 13 == 4 ? Long.MAX_VALUE : rnd.nextLong());
        v.add(id % 13 == 5 ? -0.0f : (float) ((rnd.nextDouble() - 0.5) * 2e6));
        v.add(id % 13 == 6 ? Double.MIN_VALUE : (rnd.nextDouble() - 0.5) * 2e300);
        v.add(id % 13 == 7 ? new BigDecimal("-9999999.99") : BigDecimal.valueOf(rnd.nextLong(-999_999_999L, 1_000_000_000L), 2));
        v.add(id % 13 == 8 ? new BigDecimal("99999999999999.9999")
                : BigDecimal.valueOf(rnd.nextLong(-999_999_999_999_999_999L, 1_000_000_000_000_000_000L), 4));
        v.add(new BigDecimal(bigUnscaled(rnd, id % 13 == 9), 10));
        v.add(id % 11 == 0 ? "ab   " : String.format("c%04d", id % 10_000));
        v.add(varchar(rnd, id));
        v.add(string(rnd, id));
        v.add(Canon.hex(bytes(rnd, 4)));
        v.add(Canon.hex(bytes(rnd, rnd.nextInt(0, 11))));
        v.add(Canon.hex(bytes(rnd, rnd.nextInt(0, 41))));
        v.add(LocalDate.ofEpochDay(rnd.nextInt(-50_000, 50_000)));
        v.add(LocalTime.ofSecondOfDay(rnd.nextInt(0, 86_400)));
        long seconds = rnd.nextLong(-2_208_988_800L, 4_102_444_800L); // 1900-01-01 .. 2100-01-01
        int nanos = rnd.nextInt(0, 1_000_000_000);
        v.add(LocalDateTime.ofEpochSecond(seconds, nanos / 1_000_000 * 1_000_000, ZoneOffset.UTC));
        v.add(LocalDateTime.ofEpochSecond(seconds + 1, nanos / 1_000 * 1_000, ZoneOffset.UTC));
        v.add(LocalDateTime.ofEpochSecond(seconds + 2, nanos, ZoneOffset.UTC));
        v.add(Instant.ofEpochSecond(seconds + 3, nanos / 1_000_000 * 1_000_000));
        v.add(Instant.ofEpochSecond(seconds + 4, nanos / 1_000 * 1_000));
        // NULLs: column c (1-based after id) is NULL when (id + c) % 7 == 3, so each column has some.
        for (int c = 1; c < v.size(); c++) {
            if ((id + c) % 7 == 3) {
                v.set(c, null);
            }
        }
        v.add(P_STR_VALUES.get(id % P_STR_VALUES.size()));
        v.add(P_DATE_VALUES.get((id / P_STR_VALUES.size()) % P_DATE_VALUES.size()));
        return CanonicalRow.ofKind(CanonicalRow.Kind.INSERT, v);
    }

    private static BigInteger bigUnscaled(SplittableRandom rnd, boolean max) {
        BigInteger limit = BigInteger.TEN.pow(38);
        if (max) {
            return limit.subtract(BigInteger.ONE).negate();
        }
        BigInteger b = new BigInteger(1, bytes(rnd, 16)).mod(limit);
        return rnd.nextBoolean() ? b : b.negate();
    }

    private static final String[] WORDS = {"alpha", "Beta", "γάμμα", "дельта", "日本語", "emoji😀", "tab\tx", "", "  sp  ",
        "quote'\"", "zz"};

    private static String varchar(SplittableRandom rnd, int id) {
        String s = WORDS[rnd.nextInt(WORDS.length)] + id;
        return s.codePointCount(0, s.length()) <= 20 ? s : s.substring(0, 20);
    }

    private static String string(SplittableRandom rnd, int id) {
        switch (id % 9) {
            case 0:
                return "";
            case 1:
                return "x".repeat(200) + id;
            default:
                return WORDS[rnd.nextInt(WORDS.length)] + "-" + WORDS[rnd.nextInt(WORDS.length)] + "-" + id;
        }
    }

    private static byte[] bytes(SplittableRandom rnd, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) rnd.nextInt(256);
        }
        return b;
    }

    // ---- nested types --------------------------------------------------------------------------

    /** The nested-types columns: {@code id INT NOT NULL}, then arrays, maps, a nested row and a multiset. */
    public static List<TableSpec.Column> nestedColumns() {
        return columns(
                "id", "INT NOT NULL",
                "a_int", "ARRAY<INT>",
                "a_str", "ARRAY<STRING>",
                "m_str_bigint", "MAP<STRING, BIGINT>",
                "m_int_arr", "MAP<INT, ARRAY<STRING>>",
                "r", "ROW<x INT, y STRING, z ROW<a DOUBLE>>",
                "ms", "MULTISET<STRING>");
    }

    /** The nested-types table: not partitioned, no primary key. */
    public static TableSpec nestedTable() {
        return TableSpec.of(nestedColumns());
    }

    public static List<CanonicalRow> nestedRows(int fromId, int count) {
        List<CanonicalRow> rows = new ArrayList<>(count);
        for (int id = fromId; id < fromId + count; id++) {
            rows.add(nestedRow(id));
        }
        return rows;
    }

    /**
     * Row {@code id} of the nested table. Shapes cycle with {@code id % 5}: 0 all NULL, 1 empty
     * collections, 2 collections with NULL elements/values and a row with NULL fields, 3 and 4
     * plain values of varying size.
     */
    public static CanonicalRow nestedRow(int id) {
        SplittableRandom rnd = new SplittableRandom(0xBEEFL * 1_000_003L + id);
        int shape = id % 5;
        if (shape == 0) {
            return CanonicalRow.of(id, null, null, null, null, null, null);
        }
        if (shape == 1) {
            return CanonicalRow.of(id, List.of(), List.of(), Map.of(), Map.of(), Arrays.asList(null, null, null), Map.of());
        }
        boolean withNulls = shape == 2;
        int n = 1 + rnd.nextInt(6);
        List<Object> aInt = new ArrayList<>();
        List<Object> aStr = new ArrayList<>();
        Map<Object, Object> mStrBigint = new LinkedHashMap<>();
        Map<Object, Object> mIntArr = new LinkedHashMap<>();
        Map<Object, Object> ms = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            aInt.add(withNulls && i % 2 == 0 ? null : rnd.nextInt());
            aStr.add(withNulls && i % 2 == 1 ? null : WORDS[rnd.nextInt(WORDS.length)] + i);
            mStrBigint.put("k" + i + "-" + id, withNulls && i == 0 ? null : rnd.nextLong());
            List<Object> inner = new ArrayList<>();
            for (int j = 0; j < i; j++) {
                inner.add(withNulls && j == 0 ? null : "v" + j);
            }
            mIntArr.put(i * 10 - 5, withNulls && i == 1 ? null : inner);
            ms.merge(WORDS[i % 3], 1, (a, b) -> (Integer) a + (Integer) b);
        }
        List<Object> z = withNulls ? null : Arrays.asList(rnd.nextDouble());
        List<Object> r = withNulls ? Arrays.asList(null, "y" + id, null) : Arrays.asList(rnd.nextInt(), "y" + id, z);
        return CanonicalRow.of(id, aInt, aStr, Canon.sortedMap(mStrBigint), Canon.sortedMap(mIntArr), r, Canon.sortedMap(ms));
    }

    private static List<TableSpec.Column> columns(String... nameTypePairs) {
        return TableSpec.of(nameTypePairs).columns();
    }
}
