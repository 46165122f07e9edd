package dev.streamhouse.flink.cdc.sync.columns;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code --computed_column} argument as Apache Paimon's actions take it:
 * {@code column-name=function(arguments)}, e.g. {@code dt=date_format(ts, yyyy-MM-dd)}; the function
 * name in any case, arguments separated by commas and trimmed, the column first for functions that
 * read one. Beyond Paimon's syntax (which splits at every comma and keeps quotes), an argument in
 * single quotes is taken without them ({@code ''} is a quote) and may hold commas, and commas inside
 * parentheses do not separate arguments, so {@code date_format(ts, 'yyyy-MM-dd')} formats dates (Paimon
 * would print the quoted pattern as literal text) and {@code cast(1, DECIMAL(10, 2))} works.
 */
public final class ComputedColumnParser {
    private ComputedColumnParser() {}

    /**
     * @throws IllegalArgumentException quoting the argument and saying what is wrong: the syntax, an
     *     unknown function (naming the known ones), a missing column, or literal arguments the
     *     function does not take
     */
    public static ComputedColumn parse(String argument) {
        int eq = argument.indexOf('=');
        String name = eq < 0 ? "" : argument.substring(0, eq).trim();
        if (name.isEmpty()) {
            throw invalid(argument, "it is column-name=function(arguments), e.g. 'dt=date_format(ts, yyyy-MM-dd)'");
        }
        String expression = argument.substring(eq + 1).trim();
        int open = expression.indexOf('(');
        if (open <= 0 || !expression.endsWith(")")) {
            throw invalid(argument, "the expression '" + expression + "' is function(arguments)");
        }
        String functionName = expression.substring(0, open).trim();
        ComputedFunction function = ComputedFunction.of(functionName);
        if (function == null) {
            throw invalid(argument, "there is no function '" + functionName + "'; the functions are "
                    + ComputedFunction.names());
        }
        List<String> arguments;
        try {
            arguments = split(expression.substring(open + 1, expression.length() - 1));
        } catch (IllegalArgumentException e) {
            throw invalid(argument, e.getMessage());
        }
        String input = null;
        List<String> literals = arguments;
        if (function.takesColumn()) {
            if (arguments.isEmpty() || arguments.get(0).isEmpty()) {
                throw invalid(argument, function.functionName() + "() reads a column, its first argument: "
                        + function.signature());
            }
            input = arguments.get(0);
            literals = arguments.subList(1, arguments.size());
        }
        try {
            function.checkLiterals(literals);
        } catch (IllegalArgumentException e) {
            throw invalid(argument, e.getMessage());
        }
        return new ComputedColumn(argument, name, function, input, literals);
    }

    /** The arguments between the parentheses: split at top-level commas, trimmed, unquoted. */
    private static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        if (text.isBlank()) {
            return out;
        }
        boolean quoted = false;
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                out.add(unquote(text.substring(start, i).trim()));
                start = i + 1;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("a quote is not closed");
        }
        if (depth != 0) {
            throw new IllegalArgumentException("the parentheses do not match");
        }
        out.add(unquote(text.substring(start).trim()));
        return out;
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && s.startsWith("'") && s.endsWith("'")) {
            return s.substring(1, s.length() - 1).replace("''", "'");
        }
        return s;
    }

    private static IllegalArgumentException invalid(String argument, String why) {
        return new IllegalArgumentException("Cannot parse --computed_column '" + argument + "': " + why);
    }
}
