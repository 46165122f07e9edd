package dev.streamhouse.flink.cdc.catalog;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;

import java.util.Set;

/**
 * The factory Flink asks for the tables of a {@link KafkaCatalog}: it refuses reads and writes,
 * naming the table and saying how to read a topic instead.
 */
final class KafkaCatalogTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {
    private final String catalog;
    private final String readOnlyReason;

    KafkaCatalogTableFactory(String catalog, String readOnlyReason) {
        this.catalog = catalog;
        this.readOnlyReason = readOnlyReason;
    }

    @Override
    public String factoryIdentifier() {
        return "kafka-catalog-table";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        throw new ValidationException("Cannot query table " + context.getObjectIdentifier().asSerializableString()
                + ": catalog '" + catalog + "' " + readOnlyReason + "; to query a topic, declare a table WITH "
                + "('connector' = 'kafka', ...)");
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        throw new ValidationException("Cannot write to table " + context.getObjectIdentifier().asSerializableString()
                + ": catalog '" + catalog + "' " + readOnlyReason);
    }
}
