package dev.streamhouse.flink.cdc.sync.columns;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One {@code --computed_column}: a target column whose value a {@link ComputedFunction} computes from
 * one column of the same row (a source column or an earlier computed column) and literal arguments,
 * e.g. {@code dt=date_format(ts, yyyy-MM-dd)}. Made by {@link ComputedColumnParser}; the argument
 * as given names it in messages.
 */
public final class ComputedColumn implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String argument;
    private final String name;
    private final ComputedFunction function;
    private final String input;
    private final List<String> literals;

    ComputedColumn(String argument, String name, ComputedFunction function, String input, List<String> literals) {
        this.argument = Objects.requireNonNull(argument, "argument");
        this.name = Objects.requireNonNull(name, "name");
        this.function = Objects.requireNonNull(function, "function");
        this.input = input;
        this.literals = List.copyOf(literals);
    }

    /** The {@code --computed_column} argument as given. */
    public String argument() {
        return argument;
    }

    /** The target column's name. */
    public String name() {
        return name;
    }

    public ComputedFunction function() {
        return function;
    }

    /** The column the function reads; null for functions without one ({@code now}, {@code cast}). */
    public String input() {
        return input;
    }

    /** The literal arguments, unquoted. */
    public List<String> literals() {
        return literals;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ComputedColumn other && name.equals(other.name) && function == other.function
                && Objects.equals(input, other.input) && literals.equals(other.literals);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, function, input, literals);
    }

    @Override
    public String toString() {
        return "--computed_column '" + argument + "'";
    }
}
