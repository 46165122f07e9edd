package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.table.MySqlTypeMapping;
import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How MySQL columns become table columns in a sync, with Apache Paimon's {@code --type_mapping}
 * options. Without options a column gets the type Flink CDC and Paimon give it ({@link MySqlTypeMapping}:
 * {@code TINYINT(1)} and {@code BIT(1)} BOOLEAN, {@code BIGINT UNSIGNED} DECIMAL(20, 0), DECIMAL above
 * precision 38 STRING, DATETIME TIMESTAMP, TIMESTAMP TIMESTAMP_LTZ, ...), except that {@code BINARY(n)}
 * becomes VARBINARY(n) as in Paimon's syncs (MySQL pads BINARY values, which keep their padding), and
 * primary-key columns are NOT NULL. The options:
 * <ul>
 *   <li>{@code tinyint1-not-bool}: {@code TINYINT(1)} is TINYINT;
 *   <li>{@code to-nullable}: every column but the primary key is nullable;
 *   <li>{@code to-string}: every column is STRING;
 *   <li>{@code char-to-string}: CHAR and VARCHAR are STRING;
 *   <li>{@code longtext-to-bytes}: LONGTEXT is BYTES;
 *   <li>{@code bigint-unsigned-to-bigint}: {@code BIGINT UNSIGNED} is BIGINT (values above its range fail);
 *   <li>{@code decimal-no-change}: a DECIMAL column keeps its type when the source's changes (schema evolution);
 *   <li>{@code allow-non-string-to-string}: a column may change from another type to STRING (schema evolution).
 * </ul>
 * Names are accepted with dashes or underscores.
 */
public final class TypeMapping implements Serializable {
    private static final long serialVersionUID = 1L;

    /** One {@code --type_mapping} option. */
    public enum Mode {
        TINYINT1_NOT_BOOL("tinyint1-not-bool"),
        TO_NULLABLE("to-nullable"),
        TO_STRING("to-string"),
        CHAR_TO_STRING("char-to-string"),
        LONGTEXT_TO_BYTES("longtext-to-bytes"),
        DECIMAL_NO_CHANGE("decimal-no-change"),
        BIGINT_UNSIGNED_TO_BIGINT("bigint-unsigned-to-bigint"),
        ALLOW_NON_STRING_TO_STRING("allow-non-string-to-string");

        private final String optionName;

        Mode(String optionName) {
            this.optionName = optionName;
        }

        public String optionName() {
            return optionName;
        }
    }

    private final EnumSet<Mode> modes;

    private TypeMapping(Set<Mode> modes) {
        this.modes = modes.isEmpty() ? EnumSet.noneOf(Mode.class) : EnumSet.copyOf(modes);
    }

    public static TypeMapping defaults() {
        return new TypeMapping(Set.of());
    }

    /**
     * Parses a comma-separated list of options, e.g. {@code tinyint1-not-bool,to-nullable}.
     *
     * @throws IllegalArgumentException naming an unknown option and the known ones
     */
    public static TypeMapping parse(String options) {
        EnumSet<Mode> modes = EnumSet.noneOf(Mode.class);
        if (options != null) {
            for (String raw : options.split(",")) {
                String name = raw.trim().toLowerCase(Locale.ROOT).replace('_', '-');
                if (name.isEmpty()) {
                    continue;
                }
                Mode found = null;
                for (Mode m : Mode.values()) {
                    if (m.optionName.equals(name)) {
                        found = m;
                    }
                }
                if (found == null) {
                    List<String> known = new ArrayList<>();
                    for (Mode m : Mode.values()) {
                        known.add(m.optionName);
                    }
                    throw new IllegalArgumentException("Unknown --type_mapping option '" + raw.trim() + "'; known: "
                            + String.join(", ", known));
                }
                modes.add(found);
            }
        }
        return new TypeMapping(modes);
    }

    public boolean has(Mode mode) {
        return modes.contains(mode);
    }

    /**
     * The table column type of a source column.
     *
     * @param primaryKey whether the column is part of the table's primary key (then NOT NULL)
     * @throws IllegalArgumentException naming the column if its type has no table type
     */
    public DataType toTableType(CdcColumn column, boolean primaryKey) {
        DataType type = baseType(column.type(), column.name());
        boolean nullable = !primaryKey && (column.nullable() || has(Mode.TO_NULLABLE));
        return type.copy(nullable);
    }

    private DataType baseType(MySqlType t, String column) {
        if (has(Mode.TO_STRING)) {
            return DataTypes.STRING();
        }
        String name = t.name();
        if (has(Mode.TINYINT1_NOT_BOOL) && name.equals("TINYINT") && t.length() == 1 && !t.unsigned()) {
            return DataTypes.TINYINT();
        }
        if (has(Mode.BIGINT_UNSIGNED_TO_BIGINT) && name.equals("BIGINT") && t.unsigned()) {
            return DataTypes.BIGINT();
        }
        if (has(Mode.CHAR_TO_STRING) && (name.equals("CHAR") || name.equals("VARCHAR"))) {
            return DataTypes.STRING();
        }
        if (has(Mode.LONGTEXT_TO_BYTES) && name.equals("LONGTEXT")) {
            return DataTypes.BYTES();
        }
        if (name.equals("BINARY")) {
            return DataTypes.VARBINARY(t.length() > 0 ? t.length() : 1);
        }
        return FlinkTypes.toStorageType(MySqlTypeMapping.toFlinkType(t, column).getLogicalType(), column);
    }

    @Override
    public String toString() {
        List<String> names = new ArrayList<>();
        modes.forEach(m -> names.add(m.optionName));
        return String.join(",", names);
    }
}
