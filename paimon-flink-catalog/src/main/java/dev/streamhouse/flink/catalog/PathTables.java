package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.catalog.PathTable;
import dev.streamhouse.storage.options.TableKindOptions;
import dev.streamhouse.storage.table.Table;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedCatalogTable;

import java.util.Map;

/**
 * Tables used without a catalog: {@code CREATE TEMPORARY TABLE t (...) WITH ('connector'='paimon',
 * 'path'='...')}. The table directory is created from the DDL on first use, as in Paimon.
 */
final class PathTables {

    private PathTables() {}

    static Table loadOrCreate(ResolvedCatalogTable table, String name) {
        String location = table.getOptions().get(TableKindOptions.PATH.key());
        if (location == null || location.isBlank()) {
            throw new ValidationException("Cannot use table " + name + " with 'connector'='paimon': option 'path' "
                    + "is missing; set it to the table directory, e.g. 'path'='file:///data/wh/db.db/t'");
        }
        return PathTable.loadOrCreate(location, table.getOptions(), name,
                () -> CatalogTableConverter.toStorageSchema(table, Map.of(), name));
    }
}
