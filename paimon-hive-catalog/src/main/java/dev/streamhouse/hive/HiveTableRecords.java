package dev.streamhouse.hive;

import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.PartitionLifecycleOptions;
import dev.streamhouse.storage.options.TagOptions;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.hive.metastore.TableType;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;

/**
 * A table as a Hive metastore records it, the same record Apache Paimon's Hive catalog writes, so that
 * its catalog, and Spark, Trino or Hive through Paimon's connectors, take our tables for Paimon tables:
 * a managed table whose storage descriptor names Paimon's input format, output format and serde, whose
 * columns are the schema's (as Hive types), and whose parameters say {@code table_type=PAIMON} and carry
 * the table's options ({@code sync-all-properties}, the default) or only its {@code hive.*} ones.
 */
final class HiveTableRecords {
    static final String INPUT_FORMAT = "org.apache.paimon.hive.mapred.PaimonInputFormat";
    static final String OUTPUT_FORMAT = "org.apache.paimon.hive.mapred.PaimonOutputFormat";
    static final String SERDE = "org.apache.paimon.hive.PaimonSerDe";
    static final String STORAGE_HANDLER = "org.apache.paimon.hive.PaimonStorageHandler";
    static final String TABLE_TYPE_PARAMETER = "table_type";
    static final String PAIMON = "PAIMON";
    /** The metastore's key of a table's storage handler (hive_metastoreConstants.META_TABLE_STORAGE). */
    static final String STORAGE_HANDLER_PARAMETER = "storage_handler";
    static final String COMMENT_PARAMETER = "comment";
    private static final String HIVE_PREFIX = "hive.";

    private final boolean syncAllProperties;
    private final String owner;

    HiveTableRecords(boolean syncAllProperties, String owner) {
        this.syncAllProperties = syncAllProperties;
        this.owner = owner;
    }

    /**
     * Whether the table is registered as partitioned: {@code metastore.partitioned-table} and partition keys.
     * Then the partition columns are the record's partition keys and not among its columns, as in Hive.
     */
    static boolean partitionedInMetastore(TableSchema schema) {
        return !schema.partitionKeys().isEmpty() && Boolean.parseBoolean(schema.options()
                .getOrDefault(PartitionLifecycleOptions.METASTORE_PARTITIONED_TABLE.key(), "false").trim());
    }

    /** The key of the partitions the table's tags are ({@code metastore.tag-to-partition}), or null. */
    static String tagPartitionKey(TableSchema schema) {
        String key = schema.options().get(TagOptions.METASTORE_TAG_TO_PARTITION.key());
        return key == null || key.isBlank() ? null : key.trim();
    }

    /** The record of a new table {@code database.name} at {@code location} with {@code schema}. */
    Table newTable(String database, String name, TableSchema schema, Path location) {
        Table table = new Table();
        int now = (int) (System.currentTimeMillis() / 1000);
        table.setDbName(database);
        table.setTableName(name);
        table.setOwner(owner);
        table.setCreateTime(now);
        table.setLastAccessTime(now);
        table.setRetention(Integer.MAX_VALUE);
        table.setTableType(TableType.MANAGED_TABLE.name());
        table.setParameters(new HashMap<>());
        StorageDescriptor sd = new StorageDescriptor();
        SerDeInfo serde = new SerDeInfo();
        serde.setSerializationLib(SERDE);
        serde.setParameters(new HashMap<>());
        sd.setSerdeInfo(serde);
        sd.setInputFormat(INPUT_FORMAT);
        sd.setOutputFormat(OUTPUT_FORMAT);
        sd.setNumBuckets(0);
        sd.setCompressed(false);
        sd.setLocation(location.toString());
        table.setSd(sd);
        table.setPartitionKeys(new ArrayList<>());
        update(table, schema, Map.of());
        return table;
    }

    /**
     * Brings an existing record in line with {@code schema}: columns, and the parameters this store
     * writes (those of the previous schema, {@code previousOptions}, that are gone are removed; the
     * metastore's and other engines' own parameters stay).
     */
    void update(Table table, TableSchema schema, Map<String, String> previousOptions) {
        Map<String, String> parameters = table.getParameters() == null ? new HashMap<>() : table.getParameters();
        for (String key : synced(previousOptions).keySet()) {
            parameters.remove(key);
        }
        parameters.remove(COMMENT_PARAMETER);
        for (String key : List.of("primary-key", "partition", "bucket-key")) {
            parameters.remove(key);
        }
        parameters.putAll(synced(schema.options()));
        if (syncAllProperties) {
            putJoined(parameters, "primary-key", schema.primaryKeys());
            putJoined(parameters, "partition", schema.partitionKeys());
            putJoined(parameters, "bucket-key", schema.bucketKeys());
        }
        if (schema.comment() != null) {
            parameters.put(COMMENT_PARAMETER, schema.comment());
        }
        parameters.put(TABLE_TYPE_PARAMETER, PAIMON);
        parameters.put(STORAGE_HANDLER_PARAMETER, STORAGE_HANDLER);
        table.setParameters(parameters);
        boolean partitioned = partitionedInMetastore(schema);
        List<FieldSchema> columns = new ArrayList<>();
        List<FieldSchema> partitionKeys = new ArrayList<>();
        for (DataField field : schema.fields()) {
            FieldSchema column = new FieldSchema(field.name(), HiveTypes.of(field.type()), field.description());
            (partitioned && schema.partitionKeys().contains(field.name()) ? partitionKeys : columns).add(column);
        }
        table.getSd().setCols(columns);
        if (partitioned) {
            // in partition-key order, as the table's partition values are
            partitionKeys.sort(java.util.Comparator.comparingInt(k -> schema.partitionKeys().indexOf(k.getName())));
        }
        String tagKey = tagPartitionKey(schema);
        if (tagKey != null) {
            partitionKeys.add(new FieldSchema(tagKey, "string", null));
        }
        table.setPartitionKeys(partitionKeys);
    }

    /** The options this store copies into the parameters. */
    private Map<String, String> synced(Map<String, String> options) {
        if (syncAllProperties) {
            return options;
        }
        Map<String, String> hive = new HashMap<>();
        options.forEach((key, value) -> {
            if (key.startsWith(HIVE_PREFIX) && key.length() > HIVE_PREFIX.length()) {
                hive.put(key.substring(HIVE_PREFIX.length()), value);
            }
        });
        return hive;
    }

    private static void putJoined(Map<String, String> parameters, String key, List<String> values) {
        if (!values.isEmpty()) {
            parameters.put(key, String.join(",", values));
        }
    }

    /** Whether the record is a Paimon table (by its formats, as Paimon's catalog decides). */
    static boolean isPaimonTable(Table table) {
        StorageDescriptor sd = table.getSd();
        return sd != null && INPUT_FORMAT.equals(sd.getInputFormat()) && OUTPUT_FORMAT.equals(sd.getOutputFormat());
    }
}
