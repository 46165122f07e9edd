package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.KafkaOrigin;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code --metadata_column} columns of a sync, with Apache Paimon's names and types:
 * {@code table_name} and {@code database_name} (STRING NOT NULL, the source table of the row) and
 * {@code op_ts} (TIMESTAMP_LTZ(3) NOT NULL, when the change happened: the binlog event's time, or the
 * time a Kafka CDC format carries; for rows of the initial snapshot 1970-01-01 00:00:00 UTC, epoch 0,
 * which is what Paimon writes there because Flink CDC's snapshot records carry {@code ts_ms} 0); and
 * for a Kafka sync the Kafka record's {@code topic} (STRING), {@code partition} (INT),
 * {@code offset} (BIGINT), {@code timestamp} (TIMESTAMP_LTZ(3)) and {@code timestamp_type} (STRING:
 * {@code CreateTime}, {@code LogAppendTime} or {@code NoTimestampType}).
 */
public enum MetadataColumn {
    TABLE_NAME("table_name", DataTypes.STRING().notNull(), false),
    DATABASE_NAME("database_name", DataTypes.STRING().notNull(), false),
    OP_TS("op_ts", DataTypes.TIMESTAMP_LTZ(3).notNull(), false),
    TOPIC("topic", DataTypes.STRING(), true),
    PARTITION("partition", DataTypes.INT(), true),
    OFFSET("offset", DataTypes.BIGINT(), true),
    TIMESTAMP("timestamp", DataTypes.TIMESTAMP_LTZ(3), true),
    TIMESTAMP_TYPE("timestamp_type", DataTypes.STRING(), true);

    private final String columnName;
    private final DataType type;
    private final boolean kafkaOnly;

    MetadataColumn(String columnName, DataType type, boolean kafkaOnly) {
        this.columnName = columnName;
        this.type = type;
        this.kafkaOnly = kafkaOnly;
    }

    public String columnName() {
        return columnName;
    }

    /** The column's type in a table the sync creates (a column added to an existing table is nullable). */
    public DataType type() {
        return type;
    }

    /** The value for a row of {@code record}. */
    public Object value(CdcRecord record) {
        KafkaOrigin kafka = record.kafkaOrigin();
        switch (this) {
            case TABLE_NAME:
                return record.table().table();
            case DATABASE_NAME:
                return record.table().database();
            case OP_TS:
                return Instant.ofEpochMilli(record.snapshot() ? 0 : record.sourceTimestampMillis());
            case TOPIC:
                return kafka == null ? null : kafka.topic();
            case PARTITION:
                return kafka == null ? null : (long) kafka.partition();
            case OFFSET:
                return kafka == null ? null : kafka.offset();
            case TIMESTAMP:
                return kafka == null || kafka.timestampMillis() < 0 ? null : Instant.ofEpochMilli(kafka.timestampMillis());
            default:
                return kafka == null ? null : kafka.timestampType();
        }
    }

    /** {@link #parse(List, boolean)} for a MySQL sync. */
    public static List<MetadataColumn> parse(List<String> arguments) {
        return parse(arguments, false);
    }

    /**
     * The columns of {@code --metadata_column} values, each a comma-separated list of names (any case).
     *
     * @param kafka whether the sync reads Kafka (which adds the Kafka record's columns)
     * @throws IllegalArgumentException naming an unknown or repeated name and the known ones
     */
    public static List<MetadataColumn> parse(List<String> arguments, boolean kafka) {
        Set<MetadataColumn> columns = new LinkedHashSet<>();
        for (String argument : arguments) {
            for (String raw : argument.split(",")) {
                String name = raw.trim().toLowerCase(Locale.ROOT);
                if (name.isEmpty()) {
                    continue;
                }
                MetadataColumn column = null;
                for (MetadataColumn c : values()) {
                    if (c.columnName.equals(name) && (kafka || !c.kafkaOnly)) {
                        column = c;
                    }
                }
                if (column == null) {
                    throw new IllegalArgumentException("Unknown --metadata_column '" + raw.trim()
                            + "'; a " + (kafka ? "Kafka" : "MySQL") + " sync has " + names(kafka));
                }
                if (!columns.add(column)) {
                    throw new IllegalArgumentException("--metadata_column '" + name + "' is given twice");
                }
            }
        }
        return new ArrayList<>(columns);
    }

    private static String names(boolean kafka) {
        List<String> names = new ArrayList<>();
        for (MetadataColumn c : values()) {
            if (kafka || !c.kafkaOnly) {
                names.add(c.columnName);
            }
        }
        return String.join(", ", names);
    }
}
