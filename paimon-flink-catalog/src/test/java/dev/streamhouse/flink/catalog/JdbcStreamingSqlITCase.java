package dev.streamhouse.flink.catalog;

import java.util.HashMap;
import java.util.Map;

/** {@link StreamingSqlITCase} on a catalog with a jdbc metastore (a SQLite file per test). */
class JdbcStreamingSqlITCase extends StreamingSqlITCase {
    @Override
    protected Map<String, String> catalogOptions() {
        Map<String, String> options = new HashMap<>(super.catalogOptions());
        options.put("metastore", "jdbc");
        options.put("uri", "jdbc:sqlite:" + warehouse.resolve("catalog.sqlite"));
        return options;
    }
}
