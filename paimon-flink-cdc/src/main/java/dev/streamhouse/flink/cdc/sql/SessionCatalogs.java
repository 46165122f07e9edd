package dev.streamhouse.flink.cdc.sql;

import java.util.Map;
import java.util.Optional;

/**
 * What {@link SyncStatementPlanner} needs to know of a SQL session: its current catalog and database,
 * and how its catalogs were created. Implemented over the session that runs the statement (in
 * {@code bin/flink-sql}, by statements to the SQL gateway).
 */
public interface SessionCatalogs {

    /** How a catalog was created: its {@code 'type'} (null when not known) and its other options. */
    record CatalogDefinition(String type, Map<String, String> options) {
        public CatalogDefinition {
            options = Map.copyOf(options);
        }
    }

    String currentCatalog();

    /** The current database; null when none is set. */
    String currentDatabase();

    /**
     * The catalog's definition: empty when the session has no such catalog; a definition without type
     * when the catalog exists but its options are not known (e.g. Flink's built-in default catalog).
     */
    Optional<CatalogDefinition> catalog(String name);
}
