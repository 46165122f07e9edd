package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.InvalidOptionsException;
import dev.streamhouse.storage.options.OptionPattern;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataType;

import java.util.List;

/**
 * One aggregate function bound to one column: the identifier it was asked by, the column's name and
 * type, and the table options its parameters come from ({@code fields.<column>.*}). Aggregators keep it
 * to name the column and the function in their errors.
 */
final class ColumnFunction {
    private final String identifier;
    private final String column;
    private final DataType type;
    private final Options tableOptions;

    ColumnFunction(String identifier, String column, DataType type, Options tableOptions) {
        this.identifier = identifier;
        this.column = column;
        this.type = type;
        this.tableOptions = tableOptions;
    }

    /** The identifier as configured, e.g. {@code first_not_null_value} for the legacy spelling. */
    String identifier() {
        return identifier;
    }

    String column() {
        return column;
    }

    DataType type() {
        return type;
    }

    /** The refusal of a column type the function does not accept; {@code accepted} reads "numeric types". */
    InvalidOptionsException typeRefused(String accepted) {
        return new InvalidOptionsException(List.of("Cannot use aggregate function '" + identifier + "' on column '"
                + column + "' of type " + type.asSQLString() + ": it accepts " + accepted
                + " only; change option '" + aggregateFunctionKey() + "' or the column type"));
    }

    /** The refusal of a column type the function accepts in Paimon but this store cannot aggregate yet. */
    UnsupportedOperationException typeNotSupportedYet(String why) {
        return new UnsupportedOperationException("Cannot use aggregate function '" + identifier + "' on column '"
                + column + "' of type " + type.asSQLString() + ": " + why + " is not supported yet");
    }

    /** What {@link FieldAggregator#retract} throws for a function that cannot take values back. */
    UnsupportedOperationException retractionRefused() {
        return new UnsupportedOperationException("Cannot retract a value of column '" + column
                + "': aggregate function '" + identifier + "' does not support retraction; set '"
                + "fields." + column + ".ignore-retract' = 'true' to ignore retractions of this column");
    }

    /** The value of {@code fields.<column>.<name>} (or the family's default), parsed as the family declares. */
    <T> T option(OptionPattern family, Class<T> valueType) {
        String key = family.keyFor(column);
        ConfigOption<?> declaration = family.prototype();
        String raw = tableOptions.get(key);
        if (raw == null) {
            return valueType.cast(declaration.defaultValue());
        }
        try {
            return valueType.cast(declaration.parse(raw));
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionsException(List.of("Invalid value '" + raw + "' for option '" + key
                    + "' (expected " + declaration.typeName() + ")"));
        }
    }

    private String aggregateFunctionKey() {
        return "fields." + column + ".aggregate-function";
    }

    @Override
    public String toString() {
        return identifier + "(" + column + " " + type.asSQLString() + ")";
    }
}
