package dev.streamhouse.storage.options;

/**
 * What kind of table this is and which of Paimon's table features it uses (Paimon's keys and
 * defaults): only regular tables on the main branch are supported; the newer append-table features
 * (row tracking, data evolution, upsert keys) and the engine-side extras are refused until
 * implemented, and tables that store them are not read, since their rows would differ.
 */
public final class TableKindOptions {
    private TableKindOptions() {}

    public static final ConfigOption<String> TYPE =
            ConfigOption.key("type")
                    .oneOf("table", "format-table", "materialized-table", "object-table", "lance-table",
                            "iceberg-table")
                    .defaultValue("table")
                    .withDescription("Kind of table; only regular Paimon tables ('table') are supported.")
                    .supportedOnly("'table' only", OptionChecks.only("table")).affectingReads();

    public static final ConfigOption<String> PRIMARY_KEY =
            ConfigOption.key("primary-key").stringType().noDefaultValue()
                    .withDescription("The primary key as an option (comma-separated columns), instead of a PRIMARY "
                            + "KEY clause; moved into the schema when the table is created.").immutable();

    public static final ConfigOption<String> PARTITION =
            ConfigOption.key("partition").stringType().noDefaultValue()
                    .withDescription("The partition keys as an option (comma-separated columns), instead of a "
                            + "PARTITIONED BY clause; moved into the schema when the table is created.").immutable();

    public static final ConfigOption<String> PATH =
            ConfigOption.key("path").stringType().noDefaultValue()
                    .withDescription("Directory of a table used without a catalog ('connector' = 'paimon'); a "
                            + "catalog places its tables itself.");

    public static final ConfigOption<Boolean> AUTO_CREATE =
            ConfigOption.key("auto-create").booleanType().defaultValue(false)
                    .withDescription("Tables used without a catalog: whether the table directory is created when "
                            + "it does not exist. Here such tables are always created from their DDL on first use.");

    public static final ConfigOption<String> BRANCH =
            ConfigOption.key("branch").stringType().defaultValue("main")
                    .withDescription("Branch of the table to read and write.")
                    .supportedOnly("'main' only", OptionChecks.only("main")).affectingReads();

    public static final ConfigOption<String> SCAN_FALLBACK_BRANCH =
            ConfigOption.key("scan.fallback-branch").stringType().noDefaultValue()
                    .withDescription("Branch whose partitions batch reads use where the current branch has none.")
                    .affectingReads().notSupportedYet("branches are not implemented");

    public static final ConfigOption<String> UPSERT_KEY =
            ConfigOption.key("upsert-key").stringType().noDefaultValue()
                    .withDescription("Columns by which INSERT INTO an append table merges rows (MERGE INTO).")
                    .notSupportedYet("upsert keys on append tables are not implemented; declare a primary key");

    public static final ConfigOption<Boolean> ROW_TRACKING_ENABLED =
            ConfigOption.key("row-tracking.enabled").booleanType().defaultValue(false)
                    .withDescription("Give every row of an append table a unique, stable row id.")
                    .immutable().affectingReads().notSupportedYet("row tracking is not implemented");

    public static final ConfigOption<Boolean> DATA_EVOLUTION_ENABLED =
            ConfigOption.key("data-evolution.enabled").booleanType().defaultValue(false)
                    .withDescription("Let row-tracking tables write some columns of existing rows in new files.")
                    .immutable().affectingReads().notSupportedYet("data evolution is not implemented");

    public static final ConfigOption<Boolean> QUERY_AUTH_ENABLED =
            ConfigOption.key("query-auth.enabled").booleanType().defaultValue(false)
                    .withDescription("Ask the catalog for column and row permissions on every query.")
                    .affectingReads().notSupportedYet("query authorization needs a REST catalog, which is not "
                            + "supported");

    public static final OptionPattern MATERIALIZED_TABLE = OptionPattern.of(
            ConfigOption.key("materialized-table.*").stringType().noDefaultValue()
                    .withDescription("Definition and refresh state of a Flink materialized table.")
                    .notSupportedYet("materialized tables are not supported"));

    public static final ConfigOption<Boolean> ALTER_COLUMN_NULL_TO_NOT_NULL_DISABLED =
            ConfigOption.key("alter-column-null-to-not-null.disabled").booleanType().defaultValue(true)
                    .withDescription("Whether ALTER TABLE refuses to make a nullable column NOT NULL.")
                    .notSupportedYet("making a nullable column NOT NULL is not implemented");

    public static final ConfigOption<Boolean> DISABLE_EXPLICIT_TYPE_CASTING =
            ConfigOption.key("disable-explicit-type-casting").booleanType().defaultValue(false)
                    .withDescription("Whether ALTER TABLE refuses type changes that need an explicit cast (e.g. "
                            + "BIGINT to INT). Both values are accepted; this store refuses such changes either way.");
}
