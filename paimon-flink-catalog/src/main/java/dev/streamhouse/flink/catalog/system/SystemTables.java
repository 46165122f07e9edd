package dev.streamhouse.flink.catalog.system;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** The system tables this catalog serves, and the {@code <table>$<name>} naming. */
public final class SystemTables {
    /** Separates the data table from the system table name. */
    public static final char SPLITTER = '$';

    private static final List<SystemTable> ALL = List.of(
            new SnapshotsTable(),
            new SchemasTable(),
            new OptionsTable(),
            new FilesTable(),
            new PartitionsTable(),
            new BucketsTable(),
            new ManifestsTable());

    private SystemTables() {}

    /** Whether an object name refers to a system table (contains {@code $}). */
    public static boolean isSystemTableName(String objectName) {
        return objectName.indexOf(SPLITTER) >= 0;
    }

    /** The data table part of {@code t$name}. */
    public static String dataTableName(String objectName) {
        return objectName.substring(0, objectName.indexOf(SPLITTER));
    }

    /** The system table {@code t$name} refers to, if this catalog has one of that name (case-insensitive). */
    public static Optional<SystemTable> forObjectName(String objectName) {
        int at = objectName.indexOf(SPLITTER);
        if (at <= 0) {
            return Optional.empty();
        }
        String name = objectName.substring(at + 1);
        return ALL.stream().filter(t -> t.name().equalsIgnoreCase(name)).findFirst();
    }

    /** Names of all system tables, e.g. for error messages. */
    public static List<String> names() {
        return ALL.stream().map(SystemTable::name).collect(Collectors.toList());
    }
}
