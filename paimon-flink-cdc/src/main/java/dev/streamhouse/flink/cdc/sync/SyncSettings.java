package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.sync.columns.ExtraColumns;
import dev.streamhouse.storage.catalog.Identifier;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how a sync writes its source tables, as Apache Paimon's {@code mysql_sync_table} and
 * {@code mysql_sync_database} arguments say: the catalog, the target database and either one target
 * table (a table sync; every captured source table, e.g. shards, goes into it) or one table per source
 * table (a database sync: {@code --table_prefix} + name + {@code --table_suffix}, the name being the
 * source table's, or {@code <database>_<table>} without {@code --merge_shards}), filtered by
 * {@code --including_tables} / {@code --excluding_tables} (excluding wins); primary keys (default: the
 * source's), partition keys (applied to tables that have those columns), table options, type mapping,
 * the computed and metadata columns added to every table ({@code --computed_column},
 * {@code --metadata_column}) with the time zone their temporal functions read TIMESTAMP_LTZ values in
 * ({@code server-time-zone}, else the default zone of the JVM that builds the job, as in Paimon),
 * whether an incompatible table is skipped ({@code --ignore_incompatible}) rather than failing, and
 * what becomes of a source table without primary key ({@link #keylessAsAppend()}).
 */
public final class SyncSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<String, String> catalogOptions;
    private final String database;
    private final String table;
    private final String tablePrefix;
    private final String tableSuffix;
    private final boolean mergeShards;
    private final String including;
    private final String excluding;
    private final List<String> primaryKeys;
    private final List<String> partitionKeys;
    private final Map<String, List<String>> tablePartitionKeys;
    private final Map<String, String> tableMapping;
    private final Map<String, String> tableOptions;
    private final TypeMapping typeMapping;
    private final boolean ignoreIncompatible;
    private final ExtraColumns extraColumns;
    private final ZoneId timeZone;
    private final boolean keylessAsAppend;
    private transient Pattern includingPattern;
    private transient Pattern excludingPattern;

    private SyncSettings(Builder b) {
        this.catalogOptions = Map.copyOf(b.catalogOptions);
        this.database = Objects.requireNonNull(b.database, "--database");
        this.table = b.table;
        this.tablePrefix = b.tablePrefix;
        this.tableSuffix = b.tableSuffix;
        this.mergeShards = b.mergeShards;
        this.including = b.including;
        this.excluding = b.excluding;
        this.primaryKeys = List.copyOf(b.primaryKeys);
        this.partitionKeys = List.copyOf(b.partitionKeys);
        this.tablePartitionKeys = Map.copyOf(b.tablePartitionKeys);
        this.tableMapping = Map.copyOf(b.tableMapping);
        this.tableOptions = Map.copyOf(b.tableOptions);
        this.typeMapping = b.typeMapping;
        this.ignoreIncompatible = b.ignoreIncompatible;
        this.extraColumns = b.extraColumns;
        this.timeZone = b.timeZone;
        this.keylessAsAppend = b.keylessAsAppend;
        Pattern.compile(including == null ? ".*" : including);
        if (excluding != null) {
            Pattern.compile(excluding);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Map<String, String> catalogOptions() {
        return catalogOptions;
    }

    public String database() {
        return database;
    }

    /** Whether this is a table sync (one target table). */
    public boolean singleTable() {
        return table != null;
    }

    public List<String> primaryKeys() {
        return primaryKeys;
    }

    public List<String> partitionKeys() {
        return partitionKeys;
    }

    /**
     * The partition keys of the table a source table creates: its own ({@code --multiple_table_partition_keys})
     * or else {@link #partitionKeys()}.
     */
    public List<String> partitionKeys(CdcTableId source) {
        return source == null ? partitionKeys : tablePartitionKeys.getOrDefault(source.table(), partitionKeys);
    }

    public Map<String, String> tableOptions() {
        return tableOptions;
    }

    public TypeMapping typeMapping() {
        return typeMapping;
    }

    public boolean ignoreIncompatible() {
        return ignoreIncompatible;
    }

    /** The computed and metadata columns added to every target table. */
    public ExtraColumns extraColumns() {
        return extraColumns;
    }

    /** The time zone in which computed columns read TIMESTAMP_LTZ values as local date-times. */
    public ZoneId timeZone() {
        return timeZone;
    }

    /** Whether a database sync takes this source table ({@code --including_tables}, {@code --excluding_tables}). */
    /**
     * Whether a source table without primary key (and no {@code --primary_keys}) becomes an append
     * table, as Apache Paimon's Kafka syncs make it, rather than failing a table sync and being skipped
     * by a database sync, as its MySQL syncs do.
     */
    public boolean keylessAsAppend() {
        return keylessAsAppend;
    }

    public boolean includes(CdcTableId source) {
        if (singleTable()) {
            return true;
        }
        if (includingPattern == null) {
            includingPattern = Pattern.compile(including == null ? ".*" : including);
            excludingPattern = excluding == null ? null : Pattern.compile(excluding);
        }
        String name = source.table();
        return includingPattern.matcher(name).matches()
                && (excludingPattern == null || !excludingPattern.matcher(name).matches());
    }

    /** The table a source table's rows go to (for a table sync, {@code source} may be null). */
    public Identifier target(CdcTableId source) {
        if (singleTable()) {
            return Identifier.of(database, table);
        }
        String mapped = tableMapping.get(source.table());
        if (mapped != null) {
            return Identifier.of(database, mapped);
        }
        String name = mergeShards ? source.table() : source.database() + "_" + source.table();
        return Identifier.of(database, (tablePrefix == null ? "" : tablePrefix) + name
                + (tableSuffix == null ? "" : tableSuffix));
    }

    /** Builds settings; every argument but the database is optional. */
    public static final class Builder {
        private Map<String, String> catalogOptions = Map.of();
        private String database;
        private String table;
        private String tablePrefix;
        private String tableSuffix;
        private boolean mergeShards = true;
        private String including;
        private String excluding;
        private List<String> primaryKeys = List.of();
        private List<String> partitionKeys = List.of();
        private Map<String, List<String>> tablePartitionKeys = Map.of();
        private Map<String, String> tableMapping = Map.of();
        private Map<String, String> tableOptions = Map.of();
        private TypeMapping typeMapping = TypeMapping.defaults();
        private boolean ignoreIncompatible;
        private ExtraColumns extraColumns = ExtraColumns.none();
        private ZoneId timeZone = ZoneId.systemDefault();
        private boolean keylessAsAppend;

        public Builder catalogOptions(Map<String, String> options) {
            this.catalogOptions = options;
            return this;
        }

        public Builder database(String database) {
            this.database = database;
            return this;
        }

        public Builder table(String table) {
            this.table = table;
            return this;
        }

        public Builder tablePrefix(String prefix) {
            this.tablePrefix = prefix;
            return this;
        }

        public Builder tableSuffix(String suffix) {
            this.tableSuffix = suffix;
            return this;
        }

        public Builder mergeShards(boolean mergeShards) {
            this.mergeShards = mergeShards;
            return this;
        }

        public Builder including(String regex) {
            this.including = regex;
            return this;
        }

        public Builder excluding(String regex) {
            this.excluding = regex;
            return this;
        }

        public Builder primaryKeys(List<String> keys) {
            this.primaryKeys = keys;
            return this;
        }

        /** {@code --multiple_table_partition_keys}: partition keys by source table name. */
        public Builder tablePartitionKeys(Map<String, List<String>> keys) {
            this.tablePartitionKeys = keys;
            return this;
        }

        /** {@code --table_mapping}: target table names by source table name, used as they are (no prefix or suffix). */
        public Builder tableMapping(Map<String, String> mapping) {
            this.tableMapping = mapping;
            return this;
        }

        public Builder partitionKeys(List<String> keys) {
            this.partitionKeys = keys;
            return this;
        }

        public Builder tableOptions(Map<String, String> options) {
            this.tableOptions = options;
            return this;
        }

        public Builder typeMapping(TypeMapping mapping) {
            this.typeMapping = mapping;
            return this;
        }

        public Builder ignoreIncompatible(boolean ignore) {
            this.ignoreIncompatible = ignore;
            return this;
        }

        public Builder extraColumns(ExtraColumns columns) {
            this.extraColumns = columns;
            return this;
        }

        public Builder timeZone(ZoneId zone) {
            this.timeZone = zone;
            return this;
        }

        public Builder keylessAsAppend(boolean keylessAsAppend) {
            this.keylessAsAppend = keylessAsAppend;
            return this;
        }

        /** @throws java.util.regex.PatternSyntaxException if a table regex is invalid */
        public SyncSettings build() {
            return new SyncSettings(this);
        }
    }
}
