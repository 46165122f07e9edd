package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code --metadata_column} columns of a MySQL sync, with Apache Paimon's names and types:
 * {@code table_name} and {@code database_name} (STRING NOT NULL, the source table of the row) and
 * {@code op_ts} (TIMESTAMP_LTZ(3) NOT NULL, when the change happened: the binlog event's time; for
 * rows of the initial snapshot 1970-01-01 00:00:00 UTC, epoch 0, which is what Paimon writes there
 * because Flink CDC's snapshot records carry {@code ts_ms} 0).
 */
public enum MetadataColumn {
    TABLE_NAME("table_name", DataTypes.STRING().notNull()),
    DATABASE_NAME("database_name", DataTypes.STRING().notNull()),
    OP_TS("op_ts", DataTypes.TIMESTAMP_LTZ(3).notNull());

    private final String columnName;
    private final DataType type;

    MetadataColumn(String columnName, DataType type) {
        this.columnName = columnName;
        this.type = type;
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
        switch (this) {
            case TABLE_NAME:
                return record.table().table();
            case DATABASE_NAME:
                return record.table().database();
            default:
                return Instant.ofEpochMilli(record.snapshot() ? 0 : record.sourceTimestampMillis());
        }
    }

    /**
     * The columns of {@code --metadata_column} values, each a comma-separated list of names (any case).
     *
     * @throws IllegalArgumentException naming an unknown or repeated name and the known ones
     */
    public static List<MetadataColumn> parse(List<String> arguments) {
        Set<MetadataColumn> columns = new LinkedHashSet<>();
        for (String argument : arguments) {
            for (String raw : argument.split(",")) {
                String name = raw.trim().toLowerCase(Locale.ROOT);
                if (name.isEmpty()) {
                    continue;
                }
                MetadataColumn column = null;
                for (MetadataColumn c : values()) {
                    if (c.columnName.equals(name)) {
                        column = c;
                    }
                }
                if (column == null) {
                    throw new IllegalArgumentException("Unknown --metadata_column '" + raw.trim()
                            + "'; a MySQL sync has " + names());
                }
                if (!columns.add(column)) {
                    throw new IllegalArgumentException("--metadata_column '" + name + "' is given twice");
                }
            }
        }
        return new ArrayList<>(columns);
    }

    private static String names() {
        List<String> names = new ArrayList<>();
        for (MetadataColumn c : values()) {
            names.add(c.columnName);
        }
        return String.join(", ", names);
    }
}
