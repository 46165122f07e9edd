package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.catalog.PathTable;
import dev.streamhouse.storage.options.FileSystemOptions;
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

    /**
     * @param flinkConfiguration the job's configuration: its {@code s3.*} / {@code fs.s3a.*} entries
     *     configure the file system where the table's options do not
     */
    static Table loadOrCreate(ResolvedCatalogTable table, String name, Map<String, String> flinkConfiguration) {
        String location = table.getOptions().get(TableKindOptions.PATH.key());
        if (location == null || location.isBlank()) {
            throw new ValidationException("Cannot use table " + name + " with 'connector'='paimon': option 'path' "
                    + "is missing; set it to the table directory, e.g. 'path'='file:///data/wh/db.db/t'");
        }
        // File system settings (credentials among them) open the file IO and are never stored with the table.
        Map<String, String> openOptions = FlinkCatalogFactory.withS3Configuration(table.getOptions(), flinkConfiguration);
        return PathTable.loadOrCreate(location, openOptions, name,
                () -> CatalogTableConverter.toStorageSchema(
                        table.copy(FileSystemOptions.without(table.getOptions())), Map.of(), name));
    }
}
