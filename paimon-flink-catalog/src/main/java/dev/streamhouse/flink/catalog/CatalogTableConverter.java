package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;

import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.types.utils.TypeConversions;

import java.util.HashMap;
import java.util.Map;

/**
 * Converts between Flink's catalog tables and the table format's schemas: a {@code CREATE TABLE}
 * becomes a storage {@link Schema}, a stored {@link TableSchema} becomes the {@link CatalogTable}
 * Flink plans with (physical columns, primary key, partition keys, options, comments, and the
 * watermark, which is stored as options: {@link WatermarkOptions}).
 *
 * <p>What a table cannot store is refused with a {@link CatalogException} naming it: computed and
 * metadata columns, {@code DISTRIBUTED BY}, a {@code connector} other than
 * {@code paimon}, and types without a storage counterpart.
 */
final class CatalogTableConverter {
    /** The only connector a table of this catalog may name. */
    static final String CONNECTOR_OPTION = "connector";

    private CatalogTableConverter() {}

    /**
     * The storage schema for {@code CREATE TABLE}: the table's own options win over
     * {@code tableDefaults} (the catalog's {@code table-default.*} options, prefix removed).
     *
     * @param tableName the full table name, for messages
     */
    static Schema toStorageSchema(ResolvedCatalogTable table, Map<String, String> tableDefaults, String tableName) {
        ResolvedSchema resolved = table.getResolvedSchema();
        checkStorable(table, resolved, tableName);
        Schema.Builder builder = Schema.newBuilder();
        for (Column column : resolved.getColumns()) {
            builder.column(column.getName(),
                    FlinkTypeConverter.toStorageType(column.getDataType().getLogicalType(), column.getName()),
                    column.getComment().orElse(null));
        }
        resolved.getPrimaryKey().map(UniqueConstraint::getColumns).ifPresent(builder::primaryKey);
        builder.partitionKeys(table.getPartitionKeys());
        Map<String, String> options = storedOptions(table.getOptions(), tableDefaults, tableName);
        for (WatermarkSpec watermark : resolved.getWatermarkSpecs()) {
            options.putAll(WatermarkOptions.toOptions(watermark));
        }
        builder.options(options);
        String comment = table.getComment();
        builder.comment(comment == null || comment.isEmpty() ? null : comment);
        return builder.build();
    }

    private static void checkStorable(ResolvedCatalogTable table, ResolvedSchema resolved, String tableName) {
        for (Column column : resolved.getColumns()) {
            if (column instanceof Column.ComputedColumn) {
                throw refused(tableName, "computed column '" + column.getName() + "' (" + column.asSummaryString()
                        + ") cannot be stored; the table format keeps physical columns only. Compute it in a "
                        + "view or in the query instead");
            }
            if (column instanceof Column.MetadataColumn) {
                throw refused(tableName, "metadata column '" + column.getName() + "' (" + column.asSummaryString()
                        + ") cannot be stored; tables of this catalog expose no metadata columns");
            }
        }
        table.getDistribution().ifPresent(d -> {
            throw refused(tableName, "DISTRIBUTED BY (" + d.toString() + ") is not supported; set the "
                    + "options 'bucket' and 'bucket-key' instead");
        });
    }

    private static Map<String, String> storedOptions(
            Map<String, String> declared, Map<String, String> tableDefaults, String tableName) {
        Map<String, String> options = new HashMap<>(tableDefaults);
        options.putAll(declared);
        String connector = options.remove(CONNECTOR_OPTION);
        if (connector != null && !connector.equals(FlinkCatalogFactory.IDENTIFIER)) {
            throw refused(tableName, "option 'connector' = '" + connector + "' names another connector, but "
                    + "tables of a paimon catalog are always paimon tables; remove the option, or create a "
                    + "TEMPORARY table for other connectors");
        }
        return options;
    }

    private static CatalogException refused(String tableName, String why) {
        return new CatalogException("Cannot create table " + tableName + ": " + why);
    }

    /**
     * The Flink view of a stored schema; its options are the stored table options except those holding
     * the watermark, which appears in the schema instead.
     */
    static CatalogTable toCatalogTable(TableSchema schema, String tableName) {
        org.apache.flink.table.api.Schema.Builder builder = org.apache.flink.table.api.Schema.newBuilder();
        for (DataField field : schema.fields()) {
            builder.column(field.name(), TypeConversions.fromLogicalToDataType(
                    FlinkTypeConverter.toFlinkType(field.type(), field.name())));
            if (field.description() != null) {
                builder.withComment(field.description());
            }
        }
        if (!schema.primaryKeys().isEmpty()) {
            builder.primaryKey(schema.primaryKeys());
        }
        try {
            WatermarkOptions.addTo(builder, schema.options(), tableName);
        } catch (IllegalArgumentException e) {
            throw new CatalogException(e.getMessage(), e);
        }
        return CatalogTable.newBuilder()
                .schema(builder.build())
                .comment(schema.comment())
                .partitionKeys(schema.partitionKeys())
                .options(WatermarkOptions.withoutWatermark(schema.options()))
                .build();
    }
}
