package dev.streamhouse.flink.cdc.catalog;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.kafka.KafkaTopics;
import dev.streamhouse.flink.cdc.table.MySqlTypeMapping;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.types.DataType;

import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code 'type' = 'kafka'}: a Kafka cluster whose topics carry change records in one CDC format, as
 * the sources of {@code CREATE TABLE ... AS TABLE} and {@code CREATE DATABASE ... AS DATABASE}. It has
 * one database ({@code default-database}, {@code kafka} by default) whose tables are the topics
 * (read anew on every call); a topic's columns and primary key are those of its first record that
 * carries a row (as Apache Paimon's Kafka actions take them; a topic with records of several tables
 * shows the first one's), in the types the sync gives them. The tables cannot be queried or written:
 * they only name what a sync reads. Nothing can be changed through the catalog.
 */
public final class KafkaCatalog extends ReadOnlyCatalog {
    private final Map<String, String> options;
    private final String format;
    private final KafkaTopics topics;

    /** @param options the catalog's Kafka options ({@code properties.*}, {@code value.format}, sync defaults) */
    KafkaCatalog(String name, String database, Map<String, String> options, String format, KafkaTopics topics) {
        super(name, database);
        this.options = Map.copyOf(options);
        this.format = format;
        this.topics = topics;
    }

    @Override
    String readOnlyReason() {
        return "(type 'kafka') is read-only: its tables are the topics of Kafka at "
                + options.get(KafkaCatalogOptions.BOOTSTRAP_SERVERS.key()) + ", read by CREATE TABLE ... AS TABLE and "
                + "CREATE DATABASE ... AS DATABASE";
    }

    @Override
    public void open() {
        topics.list(); // a wrong address fails CREATE CATALOG
    }

    @Override
    public void close() {}

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new KafkaCatalogTableFactory(name(), readOnlyReason()));
    }

    @Override
    public List<String> listDatabases() {
        return List.of(getDefaultDatabase());
    }

    @Override
    public CatalogDatabase getDatabase(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        return new CatalogDatabaseImpl(Map.of(), "the topics of Kafka at "
                + options.get(KafkaCatalogOptions.BOOTSTRAP_SERVERS.key()));
    }

    @Override
    public boolean databaseExists(String database) {
        return getDefaultDatabase().equals(database);
    }

    @Override
    public List<String> listTables(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        return topics.list();
    }

    @Override
    public boolean tableExists(ObjectPath path) {
        return databaseExists(path.getDatabaseName()) && topics.list().contains(path.getObjectName());
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
        requireTable(path);
        String topic = path.getObjectName();
        CdcSchema schema;
        try {
            schema = topics.firstSchema(topic, format, ZoneId.systemDefault()).orElseThrow(() ->
                    new CatalogException("Cannot show table " + path.getFullName() + " of catalog '" + name()
                            + "': topic " + topic + " has no " + format + " record with a row yet to take its columns "
                            + "from (a sync of it creates its tables when rows arrive)"));
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new CatalogException("Cannot show table " + path.getFullName() + " of catalog '" + name() + "': "
                    + e.getMessage(), e);
        }
        Schema.Builder columns = Schema.newBuilder();
        for (CdcColumn column : schema.columns()) {
            DataType type = MySqlTypeMapping.toFlinkType(column.type(), column.name());
            columns.column(column.name(), column.nullable() ? type : type.notNull());
            if (column.comment() != null) {
                columns.withComment(column.comment());
            }
        }
        if (!schema.primaryKeys().isEmpty()) {
            columns.primaryKey(schema.primaryKeys());
        }
        return CatalogTable.newBuilder().schema(columns.build())
                .comment("Kafka topic " + topic + " (" + format + "); columns of its first row, of table "
                        + schema.table())
                .options(Map.of("topic", topic)).build();
    }
}
