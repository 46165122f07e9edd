package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The system tables of a data table and the {@code <table>$<name>} naming. Two kinds exist:
 * <ul>
 *   <li>metadata tables ({@link #of}): computed from the table's metadata, read through a
 *       {@link SystemTableRead}; they show the data table as given: pass a copy with
 *       {@code scan.snapshot-id} or {@code scan.timestamp-millis} ({@link #OPTIONS}) to see an older
 *       snapshot;</li>
 *   <li>data views ({@link #dataView}): {@code audit_log}, {@code binlog}, {@code ro}, which show the
 *       table's rows and are read like a table ({@link Table#newReadBuilder()}, batch and streaming)
 *       with any of the data table's read options.</li>
 * </ul>
 */
public final class SystemTables {
    /** Separates the data table from the system table name. */
    public static final char SPLITTER = '$';

    private static final List<String> METADATA_NAMES =
            List.of("snapshots", "schemas", "options", "files", "partitions", "buckets", "manifests",
                    TableIndexesTable.NAME, ConsumersTable.NAME, TagsTable.NAME, LevelsTable.NAME,
                    TableHealthTable.NAME);

    private static final List<String> DATA_VIEW_NAMES =
            List.of(AuditLogTable.NAME, BinlogTable.NAME, ReadOptimizedTable.NAME);

    private static final List<String> NAMES = java.util.stream.Stream.concat(METADATA_NAMES.stream(),
            DATA_VIEW_NAMES.stream()).toList();

    /** The options a metadata table honours: time travel. */
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

    /** Whether {@code name} (case-insensitive) is one of the data views, read like a table. */
    public static boolean isDataView(String name) {
        return DATA_VIEW_NAMES.contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * The data view {@code name} (case-insensitive: {@code audit_log}, {@code binlog}, {@code ro}) of
     * {@code dataTable}, if it is one; read it like a table, and give it options with
     * {@link Table#copy}.
     *
     * @throws IllegalArgumentException if the data table is not stored in the Paimon format
     */
    public static Optional<Table> dataView(Table dataTable, String name) {
        Function<FileStoreTable, Table> factory;
        switch (name.toLowerCase(Locale.ROOT)) {
            case AuditLogTable.NAME:
                factory = AuditLogTable::new;
                break;
            case BinlogTable.NAME:
                factory = BinlogTable::new;
                break;
            case ReadOptimizedTable.NAME:
                factory = ReadOptimizedTable::new;
                break;
            default:
                return Optional.empty();
        }
        return Optional.of(factory.apply(stored(dataTable, name)));
    }

    private static FileStoreTable stored(Table dataTable, String name) {
        if (!(dataTable instanceof FileStoreTable)) {
            throw new IllegalArgumentException("Cannot read system table " + name + " of " + dataTable.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return (FileStoreTable) dataTable;
    }

    /**
     * The metadata table {@code name} (case-insensitive) of {@code dataTable}, if there is one of that
     * name (empty for the data views too).
     */
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
            case TableIndexesTable.NAME:
                factory = TableIndexesTable::new;
                break;
            case ConsumersTable.NAME:
                factory = ConsumersTable::new;
                break;
            case TagsTable.NAME:
                factory = TagsTable::new;
                break;
            case LevelsTable.NAME:
                factory = LevelsTable::new;
                break;
            case TableHealthTable.NAME:
                factory = TableHealthTable::new;
                break;
            default:
                return Optional.empty();
        }
        return Optional.of(factory.apply(stored(dataTable, name)));
    }
}
