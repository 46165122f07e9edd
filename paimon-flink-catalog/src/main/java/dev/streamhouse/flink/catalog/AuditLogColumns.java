package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.schema.TableSchema;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.exceptions.CatalogException;

/**
 * The computed columns and watermark a data table's {@code $audit_log} shows, as Apache Paimon 1.3.1's
 * Flink catalog shows them: after the view's physical columns ({@code rowkind} and the table's), the
 * table's computed columns in their stored order (without comments), then the table's watermark. Paimon
 * shows neither in {@code $binlog} (whose columns are arrays) nor in {@code $ro}.
 */
public final class AuditLogColumns {
    private AuditLogColumns() {}

    /**
     * Adds the computed columns and the watermark stored in {@code table}'s options to {@code builder},
     * which already holds the view's physical columns.
     *
     * @param tableName the data table's full name, for messages
     * @throws CatalogException if the stored columns or watermark cannot be read, naming the option
     */
    public static void addTo(Schema.Builder builder, TableSchema table, String tableName) {
        try {
            for (ComputedColumnOptions.StoredColumn column
                    : ComputedColumnOptions.read(table.options(), table.fieldNames(), tableName).values()) {
                builder.columnByExpression(column.name(), column.expression());
            }
            WatermarkOptions.addTo(builder, table.options(), tableName);
        } catch (IllegalArgumentException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }
}
