package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.types.DataType;

import java.io.Serializable;
import java.util.Objects;

/**
 * One change of {@code ALTER TABLE}, applied by {@link SchemaManager#commitChanges}. A list of changes
 * is applied in order to the latest schema and published as one new schema version; either all of
 * them take effect or none. The rules each change must follow are documented on
 * {@link SchemaManager#commitChanges}.
 *
 * <p>Column names are top-level column names (nested ROW fields are changed through
 * {@link UpdateColumnType}).
 */
public sealed interface SchemaChange extends Serializable {

    /** Sets table option {@code key} to {@code value}. */
    record SetOption(String key, String value) implements SchemaChange {
        public SetOption {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** Removes table option {@code key} (the option's default applies again); absent keys are ignored. */
    record RemoveOption(String key) implements SchemaChange {
        public RemoveOption {
            Objects.requireNonNull(key, "key");
        }
    }

    /** Sets the table comment; null removes it. */
    record UpdateComment(String comment) implements SchemaChange {}

    /**
     * Adds a column; it reads as NULL in rows written before. Its type must be nullable.
     *
     * @param comment the column comment, or null
     * @param position where the column goes; {@link Move#last()} appends it
     */
    record AddColumn(String name, DataType type, String comment, Move position) implements SchemaChange {
        public AddColumn {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(position, "position");
        }
    }

    /** Drops a column; its field id is never used again. */
    record DropColumn(String name) implements SchemaChange {
        public DropColumn {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Renames a column; it keeps its field id, so old data files keep their values. */
    record RenameColumn(String oldName, String newName) implements SchemaChange {
        public RenameColumn {
            Objects.requireNonNull(oldName, "oldName");
            Objects.requireNonNull(newName, "newName");
        }
    }

    /**
     * Changes a column's type to a wider one. The column keeps its nullability (change that with
     * {@link UpdateColumnNullability}); the nullability of {@code newType} itself is ignored.
     */
    record UpdateColumnType(String name, DataType newType) implements SchemaChange {
        public UpdateColumnType {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(newType, "newType");
        }
    }

    /** Makes a column nullable ({@code true}) or NOT NULL ({@code false}). */
    record UpdateColumnNullability(String name, boolean nullable) implements SchemaChange {
        public UpdateColumnNullability {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Sets a column's comment; null removes it. */
    record UpdateColumnComment(String name, String comment) implements SchemaChange {
        public UpdateColumnComment {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Moves a column to another position. */
    record UpdateColumnPosition(String name, Move position) implements SchemaChange {
        public UpdateColumnPosition {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(position, "position");
        }
    }

    /**
     * Where a column goes: first, right after another column, or last.
     *
     * @param referenceColumn the column to go after, for {@link Kind#AFTER}; null otherwise
     */
    record Move(Kind kind, String referenceColumn) implements Serializable {
        /** The kinds of positions. */
        public enum Kind {
            FIRST,
            AFTER,
            LAST
        }

        public Move {
            Objects.requireNonNull(kind, "kind");
            if ((kind == Kind.AFTER) != (referenceColumn != null)) {
                throw new IllegalArgumentException(
                        "Cannot create a column position: AFTER needs a reference column, FIRST and LAST take none");
            }
        }

        public static Move first() {
            return new Move(Kind.FIRST, null);
        }

        public static Move after(String column) {
            return new Move(Kind.AFTER, Objects.requireNonNull(column, "column"));
        }

        public static Move last() {
            return new Move(Kind.LAST, null);
        }

        @Override
        public String toString() {
            return kind == Kind.AFTER ? "AFTER " + referenceColumn : kind.toString();
        }
    }

    // ---- factories, in ALTER TABLE words ----

    static SchemaChange setOption(String key, String value) {
        return new SetOption(key, value);
    }

    static SchemaChange removeOption(String key) {
        return new RemoveOption(key);
    }

    static SchemaChange updateComment(String comment) {
        return new UpdateComment(comment);
    }

    /** Appends a nullable column without comment. */
    static SchemaChange addColumn(String name, DataType type) {
        return new AddColumn(name, type, null, Move.last());
    }

    static SchemaChange addColumn(String name, DataType type, String comment, Move position) {
        return new AddColumn(name, type, comment, position);
    }

    static SchemaChange dropColumn(String name) {
        return new DropColumn(name);
    }

    static SchemaChange renameColumn(String oldName, String newName) {
        return new RenameColumn(oldName, newName);
    }

    static SchemaChange updateColumnType(String name, DataType newType) {
        return new UpdateColumnType(name, newType);
    }

    static SchemaChange updateColumnNullability(String name, boolean nullable) {
        return new UpdateColumnNullability(name, nullable);
    }

    static SchemaChange updateColumnComment(String name, String comment) {
        return new UpdateColumnComment(name, comment);
    }

    static SchemaChange updateColumnPosition(String name, Move position) {
        return new UpdateColumnPosition(name, position);
    }
}
