package dev.streamhouse.flink.procedure;

import org.apache.flink.table.catalog.ObjectPath;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the string arguments of {@code CALL sys.*} procedures in the forms Apache Paimon's
 * procedures accept, so that users' calls work unchanged. Every error names the procedure, the
 * argument and the text it could not read.
 */
final class ProcedureArguments {
    private final String procedure;

    ProcedureArguments(String procedure) {
        this.procedure = procedure;
    }

    static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /** {@code 'db.table'}, or {@code 'table'} in the catalog's default database. */
    ObjectPath table(String value, String defaultDatabase) {
        if (isBlank(value)) {
            throw error("table", value, "a table is required, as 'database.table'");
        }
        String text = value.trim();
        int dot = text.indexOf('.');
        if (dot < 0) {
            return new ObjectPath(defaultDatabase, text);
        }
        String database = text.substring(0, dot);
        String table = text.substring(dot + 1);
        if (database.isEmpty() || table.isEmpty() || table.indexOf('.') >= 0) {
            throw error("table", value, "expected 'database.table'");
        }
        return new ObjectPath(database, table);
    }

    /**
     * Partition specs: {@code 'dt=2024-01-01,hh=01;dt=2024-01-02'}, a comma joining the keys of one
     * spec and a semicolon separating specs (any of which may match). Empty for null or blank.
     */
    List<Map<String, String>> partitions(String value) {
        List<Map<String, String>> out = new ArrayList<>();
        if (isBlank(value)) {
            return out;
        }
        for (String spec : value.split(";")) {
            if (spec.isBlank()) {
                continue;
            }
            out.add(keyValues("partitions", value, spec, ","));
        }
        return out;
    }

    /** Options: {@code 'k1=v1,k2=v2'}. Empty for null or blank. */
    Map<String, String> options(String value) {
        return isBlank(value) ? new LinkedHashMap<>() : keyValues("options", value, value, ",");
    }

    private Map<String, String> keyValues(String argument, String whole, String text, String separator) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : text.split(separator)) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || pair.substring(0, eq).isBlank()) {
                throw error(argument, whole, "'" + pair.trim() + "' is not key=value");
            }
            out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return out;
    }

    /** A duration such as {@code '1 h'} or {@code '30 min'}, or null for null or blank. */
    java.time.Duration duration(String argument, String value) {
        if (isBlank(value)) {
            return null;
        }
        try {
            return dev.streamhouse.storage.options.OptionValues.duration(value);
        } catch (IllegalArgumentException e) {
            throw error(argument, value, "expected a duration such as '1 h', '30 min' or '2 d'");
        }
    }

    /** A local date-time {@code 'yyyy-MM-dd HH:mm:ss[.SSS]'} of this JVM's time zone, or null for null or blank. */
    java.time.LocalDateTime localDateTime(String argument, String value) {
        Long millis = epochMillis(argument, value);
        return millis == null ? null
                : java.time.LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(millis), java.time.ZoneId.systemDefault());
    }

    /** Epoch millis of a local date-time {@code 'yyyy-MM-dd HH:mm:ss[.SSS]'} or date, or null for null or blank. */
    Long epochMillis(String argument, String value) {
        if (isBlank(value)) {
            return null;
        }
        try {
            return dev.streamhouse.storage.options.OptionValues.localTimestampMillis(value.trim());
        } catch (IllegalArgumentException e) {
            throw error(argument, value, "expected a time 'yyyy-MM-dd HH:mm:ss[.SSS]' or 'yyyy-MM-dd'");
        }
    }

    /** A count that must be at least 1 when given; null when not given. */
    Integer positive(String argument, Integer value) {
        if (value != null && value < 1) {
            throw error(argument, String.valueOf(value), "it must be at least 1");
        }
        return value;
    }

    /** A value that must be given. */
    <T> T required(String argument, T value) {
        if (value == null || (value instanceof String && isBlank((String) value))) {
            throw error(argument, null, "it is required");
        }
        return value;
    }

    /** Refuses an argument this implementation does not support yet, if it was given. */
    void refuse(String argument, String value, String what) {
        if (!isBlank(value)) {
            throw new UnsupportedOperationException("CALL sys." + procedure + ": argument '" + argument + "' ("
                    + what + ") is not supported yet; got '" + value + "'");
        }
    }

    IllegalArgumentException error(String argument, String value, String why) {
        return new IllegalArgumentException("CALL sys." + procedure + ": cannot read argument '" + argument
                + "' = " + (value == null ? "NULL" : "'" + value + "'") + ": " + why);
    }
}
