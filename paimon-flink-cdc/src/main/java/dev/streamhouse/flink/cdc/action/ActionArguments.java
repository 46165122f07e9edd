package dev.streamhouse.flink.cdc.action;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The arguments of a sync action as Apache Paimon's action jar takes them: {@code --flag value},
 * flags with dashes or underscores alike ({@code --mysql-conf} is {@code --mysql_conf}), repeatable
 * {@code key=value} flags ({@code --mysql_conf}, {@code --catalog_conf}, {@code --table_conf},
 * {@code --computed_column}, {@code --metadata_column}), and Flink options as {@code -D key=value} or
 * {@code -Dkey=value}. A flag the action does not know, or one without its value, fails naming it.
 */
final class ActionArguments {
    private final String action;
    private final Map<String, List<String>> flags = new LinkedHashMap<>();
    private final Map<String, String> flinkOptions = new LinkedHashMap<>();

    private ActionArguments(String action) {
        this.action = action;
    }

    /**
     * @param known the flags of the action, with underscores
     * @throws IllegalArgumentException naming an unknown flag, a flag without value, or a malformed -D
     */
    static ActionArguments parse(String action, String[] args, int from, Set<String> known) {
        ActionArguments parsed = new ActionArguments(action);
        for (int i = from; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-D")) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("-D needs a key=value after it");
                }
                parsed.flinkOption(args[++i]);
            } else if (arg.startsWith("-D") && !arg.startsWith("--")) {
                parsed.flinkOption(arg.substring(2));
            } else if (arg.startsWith("--")) {
                String flag = arg.substring(2).replace('-', '_');
                String value = null;
                int eq = flag.indexOf('=');
                if (eq > 0 && !known.contains(flag)) {
                    value = arg.substring(2 + eq + 1);
                    flag = flag.substring(0, eq);
                }
                if (!known.contains(flag)) {
                    throw new IllegalArgumentException("Unknown argument '" + arg + "' of " + action + "; it takes "
                            + new TreeSet<>(known).stream().map(k -> "--" + k).toList());
                }
                if (value == null) {
                    if (i + 1 >= args.length || (args[i + 1].startsWith("--") && !args[i + 1].equals("--"))) {
                        throw new IllegalArgumentException("Argument --" + flag + " of " + action + " needs a value");
                    }
                    value = args[++i];
                }
                parsed.flags.computeIfAbsent(flag, f -> new ArrayList<>()).add(value);
            } else {
                throw new IllegalArgumentException("Unexpected argument '" + arg + "' of " + action
                        + ": arguments are --flag value pairs and -D key=value Flink options");
            }
        }
        return parsed;
    }

    private void flinkOption(String keyValue) {
        int eq = keyValue.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("Flink option '-D " + keyValue + "' is not key=value");
        }
        flinkOptions.put(keyValue.substring(0, eq).trim(), keyValue.substring(eq + 1).trim());
    }

    Map<String, String> flinkOptions() {
        return flinkOptions;
    }

    /** The flag's value, or null; a flag given twice fails. */
    String get(String flag) {
        List<String> values = flags.get(flag);
        if (values == null) {
            return null;
        }
        if (values.size() > 1) {
            throw new IllegalArgumentException("Argument --" + flag + " of " + action + " is given "
                    + values.size() + " times; give it once");
        }
        return values.get(0);
    }

    String required(String flag) {
        String value = get(flag);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(action + " needs --" + flag);
        }
        return value;
    }

    boolean bool(String flag, boolean defaultValue) {
        String value = get(flag);
        if (value == null) {
            return defaultValue;
        }
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException("Argument --" + flag + " of " + action + " is true or false, not '"
                + value + "'");
    }

    /** A comma-separated list flag, trimmed; empty when absent. */
    List<String> list(String flag) {
        String value = get(flag);
        List<String> out = new ArrayList<>();
        if (value != null) {
            for (String part : value.split(",")) {
                if (!part.isBlank()) {
                    out.add(part.trim());
                }
            }
        }
        return out;
    }

    /** The key=value pairs of a repeatable flag. */
    Map<String, String> conf(String flag) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String kv : flags.getOrDefault(flag, List.of())) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("Argument --" + flag + " of " + action + " takes key=value, not '"
                        + kv + "'");
            }
            out.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        return out;
    }

    /** Every value of a repeatable flag. */
    List<String> all(String flag) {
        return flags.getOrDefault(flag, List.of());
    }
}
