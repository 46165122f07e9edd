package dev.streamhouse.flink.catalog.alter;

import dev.streamhouse.storage.types.DataType;

import java.util.Objects;

/**
 * One schema change of {@code ALTER TABLE}, described independently of the storage's schema-change
 * API so that the Flink side can be built and tested before that API exists. Each kind corresponds
 * one to one to a storage {@code schema.SchemaChange}: SetOption, RemoveOption, UpdateComment,
 * AddColumn, DropColumn, RenameColumn, UpdateColumnType, UpdateColumnNullability,
 * UpdateColumnComment, UpdateColumnPosition.
 *
 * <p>Types carry placeholder ids for nested row fields; applying a change assigns real ids (new
 * nested fields take ids above the table's highest field id).
 */
public sealed interface SchemaChangeSpec {

    /** Sets (or replaces) a table option. */
    record SetOption(String key, String value) implements SchemaChangeSpec {
        public SetOption {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** Removes a table option; a no-op if it is not set. */
    record RemoveOption(String key) implements SchemaChangeSpec {
        public RemoveOption {
            Objects.requireNonNull(key, "key");
        }
    }

    /** Sets the table comment; null removes it. */
    record UpdateComment(String comment) implements SchemaChangeSpec {}

    /**
     * Adds a nullable or NOT NULL column.
     *
     * @param comment the column comment, or null
     * @param position where to put it, or null for after the last column
     */
    record AddColumn(String name, DataType type, String comment, Move position) implements SchemaChangeSpec {
        public AddColumn {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }

    /** Drops a column. */
    record DropColumn(String name) implements SchemaChangeSpec {
        public DropColumn {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Renames a column (its field id stays). */
    record RenameColumn(String name, String newName) implements SchemaChangeSpec {
        public RenameColumn {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(newName, "newName");
        }
    }

    /**
     * Changes a column's type. {@code newType} has the column's current nullability; a nullability
     * change comes as a separate {@link UpdateColumnNullability}.
     */
    record UpdateColumnType(String name, DataType newType) implements SchemaChangeSpec {
        public UpdateColumnType {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(newType, "newType");
        }
    }

    /** Makes a column nullable or NOT NULL. */
    record UpdateColumnNullability(String name, boolean nullable) implements SchemaChangeSpec {
        public UpdateColumnNullability {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Sets a column comment; null removes it. */
    record UpdateColumnComment(String name, String comment) implements SchemaChangeSpec {
        public UpdateColumnComment {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Moves an existing column. */
    record UpdateColumnPosition(Move move) implements SchemaChangeSpec {
        public UpdateColumnPosition {
            Objects.requireNonNull(move, "move");
        }
    }

    /**
     * Where a column goes: first, or right after {@code referenceColumn}.
     *
     * @param column the column being placed
     * @param referenceColumn the column to follow; null for {@link Kind#FIRST}
     */
    record Move(String column, Kind kind, String referenceColumn) {
        /** Position kinds Flink's DDL can express. */
        public enum Kind {
            FIRST,
            AFTER
        }

        public Move {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(kind, "kind");
            if ((kind == Kind.AFTER) != (referenceColumn != null)) {
                throw new IllegalArgumentException("A move AFTER needs a reference column, FIRST has none");
            }
        }

        public static Move first(String column) {
            return new Move(column, Kind.FIRST, null);
        }

        public static Move after(String column, String referenceColumn) {
            return new Move(column, Kind.AFTER, referenceColumn);
        }
    }
}
