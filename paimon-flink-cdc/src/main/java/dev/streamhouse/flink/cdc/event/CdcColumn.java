package dev.streamhouse.flink.cdc.event;

import java.io.Serializable;
import java.util.Objects;

/** A column of a source table: name, MySQL type, nullability and comment (null when none). */
public final class CdcColumn implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final MySqlType type;
    private final boolean nullable;
    private final String comment;

    public CdcColumn(String name, MySqlType type, boolean nullable, String comment) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.nullable = nullable;
        this.comment = comment;
    }

    public String name() {
        return name;
    }

    public MySqlType type() {
        return type;
    }

    public boolean nullable() {
        return nullable;
    }

    public String comment() {
        return comment;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CdcColumn other && name.equals(other.name) && type.equals(other.type)
                && nullable == other.nullable && Objects.equals(comment, other.comment);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, nullable, comment);
    }

    @Override
    public String toString() {
        return name + " " + type + (nullable ? "" : " NOT NULL");
    }
}
