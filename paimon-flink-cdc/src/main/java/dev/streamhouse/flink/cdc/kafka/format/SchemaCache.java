package dev.streamhouse.flink.cdc.kafka.format;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The last schema seen per table, handed out again while records repeat it, so that the sync compares
 * one instance with itself instead of every column of every record. A changed structure gets a new
 * schema with the next version.
 */
final class SchemaCache {
    private final Map<CdcTableId, CdcSchema> last = new HashMap<>();

    CdcSchema schema(CdcTableId table, List<CdcColumn> columns, List<String> primaryKeys) {
        CdcSchema previous = last.get(table);
        if (previous != null && previous.columns().equals(columns) && previous.primaryKeys().equals(primaryKeys)) {
            return previous;
        }
        CdcSchema schema = new CdcSchema(table, columns, primaryKeys, previous == null ? 1 : previous.version() + 1);
        last.put(table, schema);
        return schema;
    }
}
