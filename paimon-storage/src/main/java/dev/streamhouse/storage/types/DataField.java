package dev.streamhouse.storage.types;

import java.io.Serializable;
import java.util.Objects;

/**
 * A named, typed field with a stable id. Ids never change when a column is renamed and are never
 * reused after a column is dropped; readers map old data files to new schemas by id.
 */
public final class DataField implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int id;
    private final String name;
    private final DataType type;
    private final String description;
    private final String defaultValue;

    public DataField(int id, String name, DataType type) {
        this(id, name, type, null, null);
    }

    public DataField(int id, String name, DataType type, String description, String defaultValue) {
        this.id = id;
        this.name = Objects.requireNonNull(name, "field name");
        this.type = Objects.requireNonNull(type, "field type");
        this.description = description;
        this.defaultValue = defaultValue;
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    public DataType type() {
        return type;
    }

    /** The comment, or null. */
    public String description() {
        return description;
    }

    /** The default value as SQL text, or null. */
    public String defaultValue() {
        return defaultValue;
    }

    public DataField withType(DataType newType) {
        return new DataField(id, name, newType, description, defaultValue);
    }

    public DataField withName(String newName) {
        return new DataField(id, newName, type, description, defaultValue);
    }

    public DataField withId(int newId) {
        return new DataField(newId, name, type, description, defaultValue);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DataField)) {
            return false;
        }
        DataField that = (DataField) o;
        return id == that.id
                && name.equals(that.name)
                && type.equals(that.type)
                && Objects.equals(description, that.description)
                && Objects.equals(defaultValue, that.defaultValue);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, type, description, defaultValue);
    }

    @Override
    public String toString() {
        return "`" + name + "` " + type.asSQLString() + " (id " + id + ")";
    }
}
