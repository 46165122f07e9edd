package dev.streamhouse.e2e.oracle;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The canonical value mapping and row-set comparison shared by all interop tests.
 *
 * <p>Canonical values per type:
 *
 * <table>
 *   <tr><th>type</th><th>Java value</th></tr>
 *   <tr><td>BOOLEAN</td><td>Boolean</td></tr>
 *   <tr><td>TINYINT / SMALLINT / INT / BIGINT</td><td>Byte / Short / Integer / Long</td></tr>
 *   <tr><td>FLOAT / DOUBLE</td><td>Float / Double</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>BigDecimal with scale exactly s</td></tr>
 *   <tr><td>CHAR / VARCHAR / STRING</td><td>String (as stored; CHAR is not padded)</td></tr>
 *   <tr><td>BINARY / VARBINARY / BYTES</td><td>String {@code "0x"} + lower-case hex</td></tr>
 *   <tr><td>DATE</td><td>LocalDate</td></tr>
 *   <tr><td>TIME(p)</td><td>LocalTime (millisecond resolution, as stored)</td></tr>
 *   <tr><td>TIMESTAMP(p)</td><td>LocalDateTime</td></tr>
 *   <tr><td>TIMESTAMP(p) WITH LOCAL TIME ZONE</td><td>Instant</td></tr>
 *   <tr><td>ARRAY&lt;T&gt;</td><td>List of canonical T</td></tr>
 *   <tr><td>MULTISET&lt;T&gt;</td><td>Map from canonical T to Integer count</td></tr>
 *   <tr><td>MAP&lt;K, V&gt;</td><td>Map (equality ignores order; printed sorted by key)</td></tr>
 *   <tr><td>ROW&lt;...&gt;</td><td>List of canonical field values (nested row kind dropped)</td></tr>
 * </table>
 *
 * <p>SQL NULL is Java null at any level.
 */
public final class Canon {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Canon() {}

    /** {@code 0x} followed by two lower-case hex digits per byte. */
    public static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(2 + 2 * bytes.length).append("0x");
        for (byte b : bytes) {
            sb.append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
        }
        return sb.toString();
    }

    /** The inverse of {@link #hex(byte[])}. */
    public static byte[] unhex(String hex) {
        if (!hex.startsWith("0x") || hex.length() % 2 != 0) {
            throw new IllegalArgumentException("Cannot decode binary value '" + hex + "': expected 0x followed by hex pairs");
        }
        byte[] out = new byte[(hex.length() - 2) / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(hex.substring(2 + 2 * i, 4 + 2 * i), 16);
        }
        return out;
    }

    /** A canonical map: same entries, iterated in the order of the keys' {@link #format} form. */
    public static <K, V> Map<K, V> sortedMap(Map<K, V> map) {
        List<Map.Entry<K, V>> entries = new ArrayList<>(map.entrySet());
        entries.sort(Comparator.comparing(e -> format(e.getKey())));
        Map<K, V> out = new LinkedHashMap<>();
        for (Map.Entry<K, V> e : entries) {
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }

    /**
     * Fails unless {@code value} is made only of canonical classes (see the class comment). Catches
     * test mistakes such as a raw {@code byte[]} or an internal {@code BinaryString}.
     */
    public static void requireCanonical(Object value) {
        if (value == null
                || value instanceof Boolean
                || value instanceof Byte
                || value instanceof Short
                || value instanceof Integer
                || value instanceof Long
                || value instanceof Float
                || value instanceof Double
                || value instanceof String
                || value instanceof BigDecimal
                || value instanceof LocalDate
                || value instanceof LocalTime
                || value instanceof LocalDateTime
                || value instanceof Instant) {
            return;
        }
        if (value instanceof List) {
            ((List<?>) value).forEach(Canon::requireCanonical);
            return;
        }
        if (value instanceof Map) {
            ((Map<?, ?>) value).forEach((k, v) -> {
                requireCanonical(k);
                requireCanonical(v);
            });
            return;
        }
        throw new IllegalArgumentException("Not a canonical value: " + value + " (" + value.getClass().getName()
                + "); binary values are hex strings, see Canon");
    }

    /**
     * A readable, type-revealing form: strings quoted ({@code 'a'}), {@code 1Y} TINYINT, {@code 1S}
     * SMALLINT, {@code 1} INT, {@code 1L} BIGINT, {@code 1.5F} FLOAT, {@code 1.5D} DOUBLE,
     * {@code 1.50BD} DECIMAL, temporal values by their ISO {@code toString()}, lists {@code [..]}, maps
     * {@code {k=v}} sorted by key.
     */
    public static String format(Object v) {
        if (v == null) {
            return "null";
        } else if (v instanceof String) {
            return "'" + v + "'";
        } else if (v instanceof Byte) {
            return v + "Y";
        } else if (v instanceof Short) {
            return v + "S";
        } else if (v instanceof Long) {
            return v + "L";
        } else if (v instanceof Float) {
            return v + "F";
        } else if (v instanceof Double) {
            return v + "D";
        } else if (v instanceof BigDecimal) {
            return ((BigDecimal) v).toPlainString() + "BD";
        } else if (v instanceof byte[]) {
            return "byte[]" + hex((byte[]) v);
        } else if (v instanceof List) {
            return ((List<?>) v).stream().map(Canon::format).collect(Collectors.joining(", ", "[", "]"));
        } else if (v instanceof Map) {
            return sortedMap((Map<?, ?>) v).entrySet().stream()
                    .map(e -> format(e.getKey()) + "=" + format(e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
        }
        return v.toString();
    }

    /** The rows sorted by their string form. */
    public static List<CanonicalRow> sorted(Collection<CanonicalRow> rows) {
        List<CanonicalRow> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(CanonicalRow::toString));
        return out;
    }

    /**
     * The difference of two row multisets as text (missing and unexpected rows, each sorted by
     * string form), or null when they are equal.
     */
    public static String diff(Collection<CanonicalRow> expected, Collection<CanonicalRow> actual) {
        Map<CanonicalRow, Integer> counts = new HashMap<>();
        expected.forEach(r -> counts.merge(r, 1, Integer::sum));
        actual.forEach(r -> counts.merge(r, -1, Integer::sum));
        List<CanonicalRow> missing = new ArrayList<>();
        List<CanonicalRow> unexpected = new ArrayList<>();
        counts.forEach((row, n) -> {
            for (int i = 0; i < Math.abs(n); i++) {
                (n > 0 ? missing : unexpected).add(row);
            }
        });
        if (missing.isEmpty() && unexpected.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        sb.append("expected ").append(expected.size()).append(" rows, got ").append(actual.size()).append('\n');
        sb.append(missing.size()).append(" missing (expected, not returned):\n");
        sorted(missing).forEach(r -> sb.append("  ").append(r).append('\n'));
        sb.append(unexpected.size()).append(" unexpected (returned, not expected):\n");
        sorted(unexpected).forEach(r -> sb.append("  ").append(r).append('\n'));
        return sb.toString();
    }

    /** Fails with a readable diff unless both collections hold the same rows, counting duplicates. */
    public static void assertSameRows(Collection<CanonicalRow> expected, Collection<CanonicalRow> actual) {
        assertSameRows("", expected, actual);
    }

    public static void assertSameRows(String what, Collection<CanonicalRow> expected, Collection<CanonicalRow> actual) {
        String diff = diff(expected, actual);
        if (diff != null) {
            throw new AssertionError((what.isEmpty() ? "" : what + ": ") + "row sets differ; " + diff);
        }
    }

    /** Like {@link #assertSameRows} after setting every row's kind to +I. */
    public static void assertSameRowsIgnoringKind(
            String what, Collection<CanonicalRow> expected, Collection<CanonicalRow> actual) {
        assertSameRows(what, withKind(expected, CanonicalRow.Kind.INSERT), withKind(actual, CanonicalRow.Kind.INSERT));
    }

    public static List<CanonicalRow> withKind(Collection<CanonicalRow> rows, CanonicalRow.Kind kind) {
        return rows.stream().map(r -> r.withKind(kind)).collect(Collectors.toList());
    }
}
