package dev.streamhouse.flink.cdc.event;

import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A MySQL column type as the server declares it: the type name without modifiers ({@code INT},
 * {@code VARCHAR}, {@code DECIMAL}, ...), {@code UNSIGNED}, and the declared length and scale where
 * the type has them (-1 where it does not): {@code VARCHAR(20)} has length 20, {@code DECIMAL(10, 2)}
 * length 10 and scale 2, {@code DATETIME(6)} length 6 (its fractional-second digits),
 * {@code TINYINT(1)} length 1. Values of a column arrive in change records as these Java types:
 *
 * <table>
 *   <tr><th>MySQL</th><th>Java value</th></tr>
 *   <tr><td>BOOLEAN, BIT(1)</td><td>Boolean</td></tr>
 *   <tr><td>TINYINT .. BIGINT (signed or not, TINYINT(1) included), YEAR</td><td>Long</td></tr>
 *   <tr><td>BIGINT UNSIGNED, DECIMAL, NUMERIC</td><td>BigDecimal</td></tr>
 *   <tr><td>FLOAT</td><td>Float</td></tr>
 *   <tr><td>DOUBLE, REAL</td><td>Double</td></tr>
 *   <tr><td>CHAR, VARCHAR, *TEXT, ENUM, SET, JSON</td><td>String</td></tr>
 *   <tr><td>BINARY, VARBINARY, *BLOB, BIT(n &gt; 1) (big-endian), GEOMETRY and its kinds (WKB)</td><td>byte[]</td></tr>
 *   <tr><td>DATE</td><td>LocalDate</td></tr>
 *   <tr><td>TIME</td><td>Duration (MySQL's range is -838:59:59 to 838:59:59)</td></tr>
 *   <tr><td>DATETIME</td><td>LocalDateTime</td></tr>
 *   <tr><td>TIMESTAMP</td><td>Instant</td></tr>
 * </table>
 *
 * A NULL is a Java null. Code that reads, orders or maps values by their type switches on the
 * type's {@link #family()}, not on its name.
 */
public final class MySqlType implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The kinds of MySQL type, each the type names that are one type here: aliases ({@code INT} and
     * {@code INTEGER}, {@code DECIMAL} and {@code NUMERIC}, ...), the sizes of text and blob types,
     * and geometry with its kinds. Every name belongs to one family; a name none of them lists is
     * {@link #OTHER}. Switches over a family are exhaustive, so a family added here fails the build
     * wherever values of it are not handled.
     */
    public enum Family {
        BOOLEAN("BOOLEAN", "BOOL"),
        BIT("BIT"),
        TINYINT("TINYINT"),
        SMALLINT("SMALLINT"),
        MEDIUMINT("MEDIUMINT"),
        INT("INT", "INTEGER"),
        BIGINT("BIGINT"),
        YEAR("YEAR"),
        FLOAT("FLOAT"),
        /** MySQL's REAL is DOUBLE unless the server runs with {@code REAL_AS_FLOAT}. */
        DOUBLE("DOUBLE", "REAL", "DOUBLE PRECISION"),
        DECIMAL("DECIMAL", "NUMERIC", "DEC", "FIXED"),
        CHAR("CHAR"),
        VARCHAR("VARCHAR"),
        TEXT("TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT"),
        ENUM("ENUM"),
        SET("SET"),
        JSON("JSON"),
        BINARY("BINARY"),
        VARBINARY("VARBINARY"),
        BLOB("TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB"),
        DATE("DATE"),
        TIME("TIME"),
        DATETIME("DATETIME"),
        TIMESTAMP("TIMESTAMP"),
        /** {@code GEOMETRY} and its kinds, whose values are WKB bytes. */
        SPATIAL("GEOMETRY", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON",
                "GEOMETRYCOLLECTION", "GEOMCOLLECTION"),
        /**
         * A name no other family lists (MariaDB's {@code UUID} or {@code INET6}, say): its values are
         * read as text, and it maps to no table type.
         */
        OTHER();

        private static final Map<String, Family> BY_NAME = new HashMap<>();

        static {
            for (Family family : values()) {
                for (String name : family.names) {
                    BY_NAME.put(name, family);
                }
            }
        }

        private final List<String> names;

        Family(String... names) {
            this.names = List.of(names);
        }

        /** The type names of this family, upper case; none for {@link #OTHER}. */
        public List<String> names() {
            return names;
        }

        /** The family of an upper-case type name without modifiers; {@link #OTHER} for a name none lists. */
        public static Family of(String name) {
            return BY_NAME.getOrDefault(name, OTHER);
        }
    }

    private final String name;
    private final boolean unsigned;
    private final int length;
    private final int scale;

    public MySqlType(String name, boolean unsigned, int length, int scale) {
        this.name = Objects.requireNonNull(name, "name").toUpperCase(Locale.ROOT);
        this.unsigned = unsigned;
        this.length = length;
        this.scale = scale;
    }

    /**
     * Parses Debezium's source type name ({@code "INT UNSIGNED"}, {@code "VARCHAR"}) with length and
     * scale. ENUM and SET declare members, not a length: the length Debezium reports for them is
     * dropped, as {@code information_schema} has none.
     */
    public static MySqlType of(String declaredName, int length, int scale) {
        String upper = declaredName.trim().toUpperCase(Locale.ROOT);
        boolean unsigned = upper.contains(" UNSIGNED");
        String name = upper.replace(" ZEROFILL", "").replace(" UNSIGNED", "").trim();
        Family family = Family.of(name);
        if (family == Family.ENUM || family == Family.SET) {
            return new MySqlType(name, unsigned, -1, -1);
        }
        return new MySqlType(name, unsigned, length, scale);
    }

    public String name() {
        return name;
    }

    public Family family() {
        return Family.of(name);
    }

    /** {@code GEOMETRY} and its kinds, whose values are WKB bytes. */
    public boolean isSpatial() {
        return family() == Family.SPATIAL;
    }

    /**
     * A TIME value as MySQL writes it, {@code [-]H..H:MM:SS[.ffffff]} (hours from -838 to 838), as a
     * duration; null for null.
     */
    public static Duration parseTime(String text) {
        if (text == null) {
            return null;
        }
        boolean negative = text.startsWith("-");
        String s = negative ? text.substring(1) : text;
        String[] parts = s.split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException("'" + text + "' is no TIME value");
        }
        long hours = Long.parseLong(parts[0]);
        long minutes = Long.parseLong(parts[1]);
        String seconds = parts[2];
        int dot = seconds.indexOf('.');
        long wholeSeconds = Long.parseLong(dot < 0 ? seconds : seconds.substring(0, dot));
        long nanos = 0;
        if (dot >= 0) {
            String fraction = (seconds.substring(dot + 1) + "000000000").substring(0, 9);
            nanos = Long.parseLong(fraction);
        }
        Duration d = Duration.ofSeconds(hours * 3600 + minutes * 60 + wholeSeconds, nanos);
        return negative ? d.negated() : d;
    }

    public boolean unsigned() {
        return unsigned;
    }

    /** The declared length, precision or fractional-second digits; -1 when the type has none. */
    public int length() {
        return length;
    }

    /** The declared scale of a DECIMAL; -1 when none. */
    public int scale() {
        return scale;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MySqlType other && name.equals(other.name) && unsigned == other.unsigned
                && length == other.length && scale == other.scale;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, unsigned, length, scale);
    }

    /** As MySQL writes it, e.g. {@code DECIMAL(10, 2) UNSIGNED}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(name);
        if (length >= 0) {
            s.append('(').append(length);
            if (scale >= 0) {
                s.append(", ").append(scale);
            }
            s.append(')');
        }
        if (unsigned) {
            s.append(" UNSIGNED");
        }
        return s.toString();
    }
}
