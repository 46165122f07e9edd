package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Options of a catalog (not of a table), with Paimon's keys and defaults. The filesystem and JDBC
 * metastores exist so far (on local, {@code hdfs://} and {@code s3://} warehouses): other metastores
 * are refused, and the settings of caches, locks and other file systems are accepted with a warning.
 */
public final class CatalogOptions {
    private CatalogOptions() {}

    private static final String NO_CACHE = "the catalog caches only decoded manifests (never rewritten, so they need no "
            + "expiry) and reads other table metadata from the warehouse every time";
    private static final String NO_METASTORE = "only the filesystem, jdbc and hive metastores are supported";
    private static final String OTHER_FILE_SYSTEMS = "only local, hdfs:// and s3:// warehouses are supported so far";
    private static final String NO_LOCK_TYPE = "the lock is the metastore's own (jdbc or hive)";

    public static final ConfigOption<String> WAREHOUSE =
            ConfigOption.key("warehouse").stringType().noDefaultValue()
                    .withDescription("Root directory of the warehouse, e.g. file:///data/warehouse or /data/warehouse.");

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOption.key("default-database").stringType().defaultValue("default")
                    .withDescription("Database used when a table identifier names none; created when the catalog "
                            + "opens.");

    public static final ConfigOption<Boolean> DISABLE_CREATE_TABLE_IN_DEFAULT_DB =
            ConfigOption.key("disable-create-table-in-default-db").booleanType().defaultValue(false)
                    .withDescription("Refuse CREATE TABLE in the default database.");

    public static final ConfigOption<String> METASTORE =
            ConfigOption.key("metastore").stringType().defaultValue("filesystem")
                    .withDescription("Where the catalog keeps its list of databases and tables: filesystem, hive, "
                            + "jdbc or rest.")
                    .supportedOnly("'filesystem', 'jdbc' or 'hive'", v -> java.util.Set.of("filesystem", "jdbc", "hive")
                            .contains(v.trim().toLowerCase(java.util.Locale.ROOT)) ? null : NO_METASTORE);

    public static final ConfigOption<String> URI =
            ConfigOption.key("uri").stringType().noDefaultValue()
                    .withDescription("Address of the metastore: the JDBC URL of a jdbc metastore, e.g. "
                            + "'jdbc:mysql://host:3306/db' or 'jdbc:sqlite:/path/catalog.db', or the thrift:// address(es) "
                            + "of a hive metastore, e.g. 'thrift://host:9083' (REST addresses are not supported yet).");

    public static final ConfigOption<String> CATALOG_KEY =
            ConfigOption.key("catalog-key").stringType().defaultValue("jdbc")
                    .withDescription("Name of this catalog inside a jdbc metastore's tables; catalogs with different "
                            + "keys share one database without seeing each other's tables.");

    public static final ConfigOption<Integer> LOCK_KEY_MAX_LENGTH =
            ConfigOption.key("lock-key-max-length").intType().defaultValue(255)
                    .withDescription("Longest lock key ('<catalog-key>.<database>.<table>') of a jdbc metastore's "
                            + "lock table.");

    public static final ConfigOption<String> TABLE_TYPE =
            ConfigOption.key("table.type").oneOf("managed", "external").defaultValue("managed")
                    .withDescription("Whether the catalog owns its tables' files (managed) or not (external).")
                    .supportedOnly("'managed' only", OptionChecks.only("managed"));

    public static final ConfigOption<Boolean> CASE_SENSITIVE =
            ConfigOption.key("case-sensitive").booleanType().noDefaultValue()
                    .withDescription("Whether database, table and column names are case-sensitive (a filesystem "
                            + "catalog is).").withFallbackKeys("allow-upper-case")
                    .supportedOnly("true (or unset) only", v -> v ? null : "names are always case-sensitive");

    public static final ConfigOption<Boolean> LOCK_ENABLED =
            ConfigOption.key("lock.enabled").booleanType().noDefaultValue()
                    .withDescription("Take the metastore's lock of a table around each commit (jdbc or hive metastore): "
                            + "makes S3-compatible stores that ignore conditional writes usable.");

    public static final ConfigOption<String> LOCK_TYPE =
            ConfigOption.key("lock.type").stringType().noDefaultValue()
                    .withDescription("Kind of catalog lock, e.g. hive or zookeeper.")
                    .noEffectYet(NO_LOCK_TYPE);

    public static final ConfigOption<Duration> LOCK_CHECK_MAX_SLEEP =
            ConfigOption.key("lock-check-max-sleep").durationType().defaultValue(Duration.ofSeconds(8))
                    .withDescription("Longest pause between attempts to take the commit lock.");

    public static final ConfigOption<Duration> LOCK_ACQUIRE_TIMEOUT =
            ConfigOption.key("lock-acquire-timeout").durationType().defaultValue(Duration.ofMinutes(8))
                    .withDescription("Longest wait for the commit lock; also the age after which a lock left "
                            + "by a committer that died is taken over.");

    public static final ConfigOption<Integer> CLIENT_POOL_SIZE =
            ConfigOption.key("client-pool-size").intType().defaultValue(2)
                    .withDescription("Most idle connections kept open to the metastore (jdbc or hive).");

    public static final ConfigOption<Boolean> CACHE_ENABLED =
            ConfigOption.key("cache-enabled").booleanType().defaultValue(true)
                    .withDescription("Cache the decoded entries of manifest files in the catalog, shared by its tables, "
                            + "so that planning does not decode every manifest again (bounded by "
                            + "'cache.manifest.small-file-memory' or 'cache.manifest.max-memory'). Databases, tables, "
                            + "snapshots and partitions are read from the warehouse every time.");

    public static final ConfigOption<Duration> CACHE_EXPIRE_AFTER_ACCESS =
            ConfigOption.key("cache.expire-after-access").durationType().defaultValue(Duration.ofMinutes(10))
                    .withDescription("A cache entry expires this long after its last use.")
                    .withFallbackKeys("cache.expiration-interval").noEffectYet(NO_CACHE);

    public static final ConfigOption<Duration> CACHE_EXPIRE_AFTER_WRITE =
            ConfigOption.key("cache.expire-after-write").durationType().defaultValue(Duration.ofMinutes(30))
                    .withDescription("A cache entry expires this long after it was loaded.").noEffectYet(NO_CACHE);

    public static final ConfigOption<Long> CACHE_PARTITION_MAX_NUM =
            ConfigOption.key("cache.partition.max-num").longType().defaultValue(0L)
                    .withDescription("Most partitions cached.").noEffectYet(NO_CACHE);

    public static final ConfigOption<MemorySize> CACHE_MANIFEST_SMALL_FILE_MEMORY =
            ConfigOption.key("cache.manifest.small-file-memory").memoryType().defaultValue(MemorySize.ofMebiBytes(128))
                    .withDescription("Most heap for the decoded entries of small manifests (estimated; least recently "
                            + "used manifests are dropped first).");

    public static final ConfigOption<MemorySize> CACHE_MANIFEST_SMALL_FILE_THRESHOLD =
            ConfigOption.key("cache.manifest.small-file-threshold").memoryType().defaultValue(MemorySize.ofMebiBytes(1))
                    .withDescription("Manifest files up to this size on disk count as small: cached within "
                            + "'cache.manifest.small-file-memory'.");

    public static final ConfigOption<MemorySize> CACHE_MANIFEST_MAX_MEMORY =
            ConfigOption.key("cache.manifest.max-memory").memoryType().noDefaultValue()
                    .withDescription("When set, manifest files of any size are cached, within this much heap "
                            + "(estimated) instead of 'cache.manifest.small-file-memory'.");

    public static final ConfigOption<Integer> CACHE_SNAPSHOT_MAX_NUM_PER_TABLE =
            ConfigOption.key("cache.snapshot.max-num-per-table").intType().defaultValue(20)
                    .withDescription("Most snapshots cached per table.").noEffectYet(NO_CACHE);

    public static final ConfigOption<Boolean> SYNC_ALL_PROPERTIES =
            ConfigOption.key("sync-all-properties").booleanType().defaultValue(true)
                    .withDescription("Copy every table option into a hive metastore's table parameters (false: only "
                            + "the 'hive.*' options, prefix removed).");

    public static final ConfigOption<Boolean> FORMAT_TABLE_ENABLED =
            ConfigOption.key("format-table.enabled").booleanType().defaultValue(true)
                    .withDescription("Show plain CSV/Parquet/ORC directories of the metastore as tables.")
                    .noEffectYet("format tables are not supported");

    public static final ConfigOption<Boolean> RESOLVING_FILE_IO_ENABLED =
            ConfigOption.key("resolving-file-io.enabled").booleanType().defaultValue(false)
                    .withDescription("Choose the file system per path, for tables with external data paths.")
                    .notSupportedYet("external data paths are not supported");

    public static final ConfigOption<Boolean> FILE_IO_ALLOW_CACHE =
            ConfigOption.key("file-io.allow-cache").booleanType().defaultValue(true)
                    .withDescription("Share file system clients between tables.")
                    .noEffectYet("file system clients are always shared by tables with the same settings");

    public static final OptionPattern TABLE_DEFAULT = OptionPattern.of(
            ConfigOption.key("table-default.*").stringType().noDefaultValue()
                    .withDescription("A default for the table option after the prefix, for every table this catalog "
                            + "creates (checked like the table option itself)."));

    public static final OptionPattern FILE_SYSTEM_SETTINGS = OptionPattern.of(
            ConfigOption.key("fs.*").stringType().noDefaultValue()
                    .withDescription("Hadoop file system settings for hdfs:// and s3:// warehouses, e.g. "
                            + "'fs.s3a.connection.maximum'."));

    public static final OptionPattern S3_SETTINGS = OptionPattern.of(
            ConfigOption.key("s3.*").stringType().noDefaultValue()
                    .withDescription("S3 settings of an s3:// warehouse, as S3A's fs.s3a.<key>: 's3.endpoint', "
                            + "'s3.access-key', 's3.secret-key', 's3.path.style.access', 's3.endpoint.region', ..."));

    public static final OptionPattern S3A_SETTINGS = OptionPattern.of(
            ConfigOption.key("s3a.*").stringType().noDefaultValue()
                    .withDescription("S3 settings in the s3a spelling (as 's3.*')."));

    public static final OptionPattern OSS_SETTINGS = OptionPattern.of(
            ConfigOption.key("oss.*").stringType().noDefaultValue()
                    .withDescription("Aliyun OSS settings.").noEffectYet(OTHER_FILE_SYSTEMS));

    public static final OptionPattern HADOOP_SETTINGS = OptionPattern.of(
            ConfigOption.key("hadoop.*").stringType().noDefaultValue()
                    .withDescription("Hadoop configuration entries: 'hadoop.<key>' sets <key> for hdfs:// and "
                            + "s3:// warehouses."));

    public static final ConfigOption<String> HADOOP_CONF_DIR =
            ConfigOption.key("hadoop-conf-dir").stringType().noDefaultValue()
                    .withDescription("Directory of the Hadoop configuration files (core-site.xml, hdfs-site.xml); "
                            + "default: HADOOP_CONF_DIR, else HADOOP_HOME/etc/hadoop.");

    public static final ConfigOption<String> HIVE_CONF_DIR =
            ConfigOption.key("hive-conf-dir").stringType().noDefaultValue()
                    .withDescription("Directory of hive-site.xml (hive metastore): its settings, e.g. "
                            + "hive.metastore.uris, apply unless the catalog's options set them.");

    public static final ConfigOption<Boolean> LOCATION_IN_PROPERTIES =
            ConfigOption.key("location-in-properties").booleanType().defaultValue(false)
                    .withDescription("Keep database and table locations in a hive metastore's parameters "
                            + "('paimon_location') instead of its location fields.")
                    .supportedOnly("false only", v -> v ? "locations are kept in the metastore's location fields" : null);

    public static final ConfigOption<String> METASTORE_CLIENT_CLASS =
            ConfigOption.key("metastore.client.class").stringType()
                    .defaultValue("org.apache.hadoop.hive.metastore.HiveMetaStoreClient")
                    .withDescription("Class of the hive metastore client.")
                    .supportedOnly("'org.apache.hadoop.hive.metastore.HiveMetaStoreClient' only",
                            OptionChecks.only("org.apache.hadoop.hive.metastore.HiveMetaStoreClient"));

    public static final OptionPattern HIVE_SETTINGS = OptionPattern.of(
            ConfigOption.key("hive.*").stringType().noDefaultValue()
                    .withDescription("Hive metastore client settings (hive metastore), e.g. "
                            + "'hive.metastore.client.socket.timeout'."));

    public static final OptionPattern JDBC_SETTINGS = OptionPattern.of(
            ConfigOption.key("jdbc.*").stringType().noDefaultValue()
                    .withDescription("Connection properties of a jdbc metastore, passed to the driver without the "
                            + "prefix (e.g. 'jdbc.user', 'jdbc.password')."));

    public static final OptionPattern KERBEROS_SETTINGS = OptionPattern.of(
            ConfigOption.key("security.kerberos.*").stringType().noDefaultValue()
                    .withDescription("Kerberos login for secured file systems.")
                    .noEffectYet("Kerberos logins are not supported yet"));
}
