package dev.streamhouse.flink.catalog;

import java.util.Map;

/**
 * {@link BatchSqlITCase} on a catalog whose databases and tables are registered in a jdbc metastore (a
 * SQLite file per test) instead of being found as directories.
 */
class JdbcBatchSqlITCase extends BatchSqlITCase {
    @Override
    protected Map<String, String> catalogOptions() {
        return Map.of("metastore", "jdbc", "uri", "jdbc:sqlite:" + warehouse.resolve("catalog.sqlite"));
    }
}
