package dev.streamhouse.flink.procedure;

import dev.streamhouse.flink.catalog.FlinkCatalog;
import org.apache.flink.table.procedures.Procedure;

import java.util.List;
import java.util.Optional;

/**
 * The procedures a catalog offers in its {@code sys} database, by the names Apache Paimon uses:
 * {@code CALL my_catalog.sys.compact(...)}.
 */
public final class Procedures {
    /** The database that holds the procedures. */
    public static final String SYSTEM_DATABASE = "sys";

    private Procedures() {}

    public static List<String> names() {
        return List.of(CompactProcedure.NAME);
    }

    public static Optional<Procedure> get(String name, FlinkCatalog catalog) {
        if (CompactProcedure.NAME.equals(name)) {
            return Optional.of(new CompactProcedure(catalog));
        }
        return Optional.empty();
    }
}
