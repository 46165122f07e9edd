package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.storage.options.SecretOptions;
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
import java.util.Iterator;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * Converts between Flink's catalog tables and the table format's schemas: a {@code CREATE TABLE}
 * becomes a storage {@link Schema}, a stored {@link TableSchema} becomes the {@link CatalogTable}
 * Flink plans with (physical columns, primary key, partition keys, options, comments, and what the
 * schema file has no field for and the table therefore keeps as options, as Apache Paimon's Flink
 * catalog does: computed columns, {@link ComputedColumnOptions}, and the watermark,
 * {@link WatermarkOptions}). Flink sees those in the schema, not among the options.
 *
 * <p>What a table cannot store is refused with a {@link CatalogException} naming it: metadata
 * columns, {@code DISTRIBUTED BY}, a {@code connector} other than {@code paimon}, options under the
 * keys that hold computed columns and the watermark, and types without a storage counterpart. Stored
 * computed-column options that do not describe valid columns fail {@link #toCatalogTable} with a
 * message naming the table and the key.
 */
final class CatalogTableConverter {
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
            if (!column.isPhysical()) {
                continue; // computed: stored as options below
            }
            builder.column(column.getName(),
                    FlinkTypes.toStorageType(column.getDataType().getLogicalType(), column.getName()),
                    column.getComment().orElse(null));
        }
        resolved.getPrimaryKey().map(UniqueConstraint::getColumns).ifPresent(builder::primaryKey);
        builder.partitionKeys(table.getPartitionKeys());
        Map<String, String> options = storedOptions(table.getOptions(), tableDefaults, tableName);
        try {
            options.putAll(ComputedColumnOptions.toOptions(resolved));
        } catch (IllegalArgumentException e) {
            throw refused(tableName, e.getMessage());
        }
        for (WatermarkSpec watermark : resolved.getWatermarkSpecs()) {
            options.putAll(WatermarkOptions.toOptions(watermark));
        }
        builder.options(options);
        // Stored as Flink gives it ('' for a table declared without COMMENT), as Apache Paimon's Flink
        // catalog stores it, so that both show the same '$schemas'.comment.
        builder.comment(table.getComment());
        return builder.build();
    }

    private static void checkStorable(ResolvedCatalogTable table, ResolvedSchema resolved, String tableName) {
        for (Column column : resolved.getColumns()) {
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
        String connector = options.remove(CatalogTableOptions.CONNECTOR.key());
        if (connector != null && !connector.equals(CatalogTableOptions.PAIMON)) {
            throw refused(tableName, "option 'connector' = '" + connector + "' names another connector, but "
                    + "tables of a paimon catalog are always paimon tables; remove the option, or create a "
                    + "TEMPORARY table for other connectors");
        }
        for (String key : new TreeSet<>(options.keySet())) {
            if (ComputedColumnOptions.isColumnKey(key) || WatermarkOptions.isWatermarkKey(key)) {
                throw refused(tableName, "option '" + key + "' is reserved: the table keeps its computed columns "
                        + "and watermark under 'schema.*' keys itself; declare them in the schema instead "
                        + "(name AS expression, WATERMARK FOR ...) and remove the option");
            }
        }
        return options;
    }

    private static CatalogException refused(String tableName, String why) {
        return new CatalogException("Cannot create table " + tableName + ": " + why);
    }

    /**
     * The Flink view of a stored schema: the physical columns with the computed columns at their stored
     * positions; its options are the stored table options except those holding computed columns and
     * the watermark, which appear in the schema instead.
     *
     * @throws CatalogException if the stored computed columns or watermark are incomplete or invalid,
     *     naming the table and the option
     */
    static CatalogTable toCatalogTable(TableSchema schema, String tableName) {
        org.apache.flink.table.api.Schema.Builder builder = org.apache.flink.table.api.Schema.newBuilder();
        try {
            addColumns(builder, schema, tableName);
            if (!schema.primaryKeys().isEmpty()) {
                builder.primaryKey(schema.primaryKeys());
            }
            WatermarkOptions.addTo(builder, schema.options(), tableName);
        } catch (IllegalArgumentException e) {
            throw new CatalogException(e.getMessage(), e);
        }
        return CatalogTable.newBuilder()
                .schema(builder.build())
                .comment(schema.comment())
                .partitionKeys(schema.partitionKeys())
                .options(SecretOptions.redacted(
                        ComputedColumnOptions.withoutColumns(WatermarkOptions.withoutWatermark(schema.options()))))
                .build();
    }

    /** All columns in Flink's order: each computed column at its stored position, physical ones filling the rest. */
    private static void addColumns(org.apache.flink.table.api.Schema.Builder builder, TableSchema schema,
            String tableName) {
        SortedMap<Integer, ComputedColumnOptions.StoredColumn> computed =
                ComputedColumnOptions.read(schema.options(), schema.fieldNames(), tableName);
        Iterator<DataField> physical = schema.fields().iterator();
        int columnCount = schema.fields().size() + computed.size();
        for (int position = 0; position < columnCount; position++) {
            ComputedColumnOptions.StoredColumn column = computed.get(position);
            String comment;
            if (column != null) {
                builder.columnByExpression(column.name(), column.expression());
                comment = column.comment();
            } else {
                DataField field = physical.next();
                builder.column(field.name(), TypeConversions.fromLogicalToDataType(
                        FlinkTypes.toFlinkType(field.type(), field.name())));
                comment = field.description();
            }
            if (comment != null) {
                builder.withComment(comment);
            }
        }
    }
}
