package dev.streamhouse.flink.procedure;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedures.Procedure;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The procedures a catalog offers in its {@code sys} database, by the names Apache Paimon uses
 * ({@code CALL my_catalog.sys.compact(...)}): compaction and rescaling, snapshot, changelog, tag and
 * partition maintenance, rollbacks, orphan files and consumers ({@link #names()}; docs/procedures.md
 * has a section for each, checked by a test), and two of our own ({@link #extensions()}): table health
 * and optimize.
 *
 * <p>Every other procedure of Apache Paimon 1.3.1's Flink connector is {@linkplain #notSupportedYet()
 * known by name}: calling it fails saying it is not supported yet, whatever its arguments. Together
 * the two lists, without the extensions, are exactly Paimon's procedures (a test in {@code e2e-tests} compares them with
 * Paimon's jar).
 */
public final class Procedures {
    /** The database that holds the procedures. */
    public static final String SYSTEM_DATABASE = "sys";

    /** Apache Paimon 1.3.1's procedures that are not here yet, sorted. */
    private static final List<String> NOT_SUPPORTED_YET = List.of(
            "alter_column_default_value",
            "alter_function",
            "alter_view_dialect",
            "clone",
            "compact_database",
            "compact_manifest",
            "copy_files",
            "create_branch",
            "create_function",
            "create_privileged_user",
            "delete_branch",
            "drop_function",
            "drop_privileged_user",
            "fast_forward",
            "grant_privilege_to_user",
            "init_file_based_privilege",
            "merge_into",
            "migrate_database",
            "migrate_iceberg_table",
            "migrate_table",
            "purge_files",
            "query_service",
            "remove_unexisting_files",
            "repair",
            "revoke_privilege_from_user",
            "rewrite_file_index");

    private Procedures() {}

    /** The procedures that work, by name, sorted. */
    private static final Map<String, Function<ProcedureCatalog, Procedure>> SUPPORTED = new TreeMap<>(Map.ofEntries(
            Map.entry(CompactProcedure.NAME, CompactProcedure::new),
            Map.entry(ExpireSnapshotsProcedure.NAME, ExpireSnapshotsProcedure::new),
            Map.entry(ExpireChangelogsProcedure.NAME, ExpireChangelogsProcedure::new),
            Map.entry(ResetConsumerProcedure.NAME, ResetConsumerProcedure::new),
            Map.entry(ClearConsumersProcedure.NAME, ClearConsumersProcedure::new),
            Map.entry(ExpirePartitionsProcedure.NAME, ExpirePartitionsProcedure::new),
            Map.entry(DropPartitionProcedure.NAME, DropPartitionProcedure::new),
            Map.entry(MarkPartitionDoneProcedure.NAME, MarkPartitionDoneProcedure::new),
            Map.entry(RemoveOrphanFilesProcedure.NAME, RemoveOrphanFilesProcedure::new),
            Map.entry(CreateTagProcedure.CREATE, CreateTagProcedure::create),
            Map.entry(CreateTagProcedure.REPLACE, CreateTagProcedure::replace),
            Map.entry(CreateTagFromTimestampProcedure.NAME, CreateTagFromTimestampProcedure::new),
            Map.entry(CreateTagFromWatermarkProcedure.NAME, CreateTagFromWatermarkProcedure::new),
            Map.entry(DeleteTagProcedure.NAME, DeleteTagProcedure::new),
            Map.entry(RenameTagProcedure.NAME, RenameTagProcedure::new),
            Map.entry(ExpireTagsProcedure.NAME, ExpireTagsProcedure::new),
            Map.entry(RollbackToProcedure.NAME, RollbackToProcedure::new),
            Map.entry(RollbackToTimestampProcedure.NAME, RollbackToTimestampProcedure::new),
            Map.entry(RollbackToWatermarkProcedure.NAME, RollbackToWatermarkProcedure::new),
            Map.entry(RescaleProcedure.NAME, RescaleProcedure::new),
            Map.entry(TriggerTagAutomaticCreationProcedure.NAME, TriggerTagAutomaticCreationProcedure::new),
            Map.entry(TableHealthProcedure.NAME, TableHealthProcedure::new),
            Map.entry(OptimizeProcedure.NAME, OptimizeProcedure::new)));

    /** The procedures that work here and are not Apache Paimon's, sorted. */
    private static final List<String> EXTENSIONS = List.of(OptimizeProcedure.NAME, TableHealthProcedure.NAME);

    /** The procedures that work, as {@code SHOW PROCEDURES FROM sys} lists them. */
    public static List<String> names() {
        return List.copyOf(SUPPORTED.keySet());
    }

    /** The procedures of {@link #names()} that Apache Paimon does not have, sorted. */
    public static List<String> extensions() {
        return EXTENSIONS;
    }

    /** Apache Paimon's procedures that {@link #resolve} refuses by name, sorted. */
    public static List<String> notSupportedYet() {
        return NOT_SUPPORTED_YET;
    }

    /**
     * The procedure at {@code path} of {@code catalog}.
     *
     * <p>Fails with a {@link ValidationException} rather than Flink's checked
     * {@code ProcedureNotExistException}: Flink's planner turns that one into an empty lookup, and
     * Calcite then reports "No match found for function signature", which names neither the
     * procedure's status nor where to look. An exception thrown here ends SQL validation with its own
     * message, before Calcite matches any argument, so the message is the same for positional and
     * named arguments of any type.
     *
     * @throws ValidationException if the procedure is one of Apache Paimon's that is not here yet, or
     *     if there is no such procedure
     */
    public static Procedure resolve(ObjectPath path, ProcedureCatalog catalog) {
        String name = path.getObjectName();
        if (SYSTEM_DATABASE.equals(path.getDatabaseName())) {
            Function<ProcedureCatalog, Procedure> factory = SUPPORTED.get(name);
            if (factory != null) {
                return factory.apply(catalog);
            }
            if (NOT_SUPPORTED_YET.contains(name)) {
                throw new ValidationException("Procedure " + SYSTEM_DATABASE + "." + name + " is not supported yet;"
                        + " SHOW PROCEDURES FROM " + SYSTEM_DATABASE + " lists the procedures catalog '"
                        + catalog.name() + "' supports");
            }
        }
        throw new ValidationException("Procedure " + path.getFullName() + " does not exist in catalog '"
                + catalog.name() + "'; SHOW PROCEDURES FROM " + SYSTEM_DATABASE
                + " lists the procedures there are");
    }
}
