package dev.streamhouse.storage.maintenance.health;

import java.util.Map;

/**
 * The SQL statements findings recommend, for a table given by its full name {@code db.t}: string
 * literals have their quotes doubled, identifiers are back-quoted where Flink SQL needs it.
 */
final class Statements {
    private final String fullName;

    Statements(String fullName) {
        this.fullName = fullName;
    }

    /** {@code CALL sys.compact} of the partition (or the whole table for an empty spec), full compaction. */
    String compact(Map<String, String> partitionSpec) {
        if (partitionSpec.isEmpty()) {
            return "CALL sys.compact(`table` => " + literal(fullName) + ")";
        }
        return "CALL sys.compact(`table` => " + literal(fullName) + ", partitions => "
                + literal(spec(partitionSpec)) + ")";
    }

    String compactTable() {
        return compact(Map.of());
    }

    String expireSnapshots() {
        return "CALL sys.expire_snapshots(`table` => " + literal(fullName) + ")";
    }

    String expireChangelogs(int retainMax) {
        return "CALL sys.expire_changelogs(`table` => " + literal(fullName) + ", retain_max => " + retainMax + ")";
    }

    String resetConsumer(String consumerId) {
        return "CALL sys.reset_consumer(`table` => " + literal(fullName) + ", consumer_id => " + literal(consumerId)
                + ")";
    }

    String expirePartitions() {
        return "CALL sys.expire_partitions(`table` => " + literal(fullName) + ")";
    }

    String expireTags() {
        return "CALL sys.expire_tags(`table` => " + literal(fullName) + ")";
    }

    String deleteTags(String commaSeparatedNames) {
        return "CALL sys.delete_tag(`table` => " + literal(fullName) + ", tag => " + literal(commaSeparatedNames) + ")";
    }

    /** {@code ALTER TABLE `db`.`t` SET ('key' = 'value')}. */
    String alter(String key, String value) {
        int dot = fullName.indexOf('.');
        String table = dot < 0 ? identifier(fullName)
                : identifier(fullName.substring(0, dot)) + "." + identifier(fullName.substring(dot + 1));
        return "ALTER TABLE " + table + " SET (" + literal(key) + " = " + literal(value) + ")";
    }

    /** {@code dt=2024-01-01,hh=01}: the form of the {@code partitions} argument of the procedures. */
    static String spec(Map<String, String> partitionSpec) {
        StringBuilder out = new StringBuilder();
        partitionSpec.forEach((k, v) -> out.append(out.length() == 0 ? "" : ",").append(k).append('=').append(v));
        return out.toString();
    }

    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static String identifier(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
