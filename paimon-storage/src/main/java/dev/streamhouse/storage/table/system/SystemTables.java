package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The system tables of a data table and the {@code <table>$<name>} naming. A system table shows the
 * data table as given: pass a copy with {@code scan.snapshot-id} or {@code scan.timestamp-millis} to
 * see an older snapshot.
 */
public final class SystemTables {
    /** Separates the data table from the system table name. */
    public static final char SPLITTER = '$';

    private static final List<String> NAMES =
            List.of("snapshots", "schemas", "options", "files", "partitions", "buckets", "manifests");

    /** The options a system table honours: time travel. */
    public static final List<String> OPTIONS =
            List.of(ScanOptions.SCAN_SNAPSHOT_ID.key(), ScanOptions.SCAN_TIMESTAMP_MILLIS.key());

    private SystemTables() {}

    /** Whether an object name refers to a system table (contains {@code $}). */
    public static boolean isSystemTableName(String objectName) {
        return objectName.indexOf(SPLITTER) >= 0;
    }

    /** The data table part of {@code t$name}. */
    public static String dataTableName(String objectName) {
        return objectName.substring(0, objectName.indexOf(SPLITTER));
    }

    /** The system table part of {@code t$name}. */
    public static String systemTableName(String objectName) {
        return objectName.substring(objectName.indexOf(SPLITTER) + 1);
    }

    /** Names of all system tables, e.g. for error messages. */
    public static List<String> names() {
        return NAMES;
    }

    /** The system table {@code name} (case-insensitive) of {@code dataTable}, if there is one of that name. */
    public static Optional<SystemTable> of(Table dataTable, String name) {
        Function<FileStoreTable, SystemTable> factory;
        switch (name.toLowerCase(Locale.ROOT)) {
            case "snapshots":
                factory = SnapshotsTable::new;
                break;
            case "schemas":
                factory = SchemasTable::new;
                break;
            case "options":
                factory = OptionsTable::new;
                break;
            case "files":
                factory = FilesTable::new;
                break;
            case "partitions":
                factory = PartitionsTable::new;
                break;
            case "buckets":
                factory = BucketsTable::new;
                break;
            case "manifests":
                factory = ManifestsTable::new;
                break;
            default:
                return Optional.empty();
        }
        if (!(dataTable instanceof FileStoreTable)) {
            throw new IllegalArgumentException("Cannot read system table " + name + " of " + dataTable.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return Optional.of(factory.apply((FileStoreTable) dataTable));
    }
}
