package dev.streamhouse.hive;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.MetastoreLoader;
import dev.streamhouse.storage.catalog.WarehouseTables;
import dev.streamhouse.storage.catalog.lock.CommitLock;
import dev.streamhouse.storage.options.CatalogOptions;
import dev.streamhouse.storage.options.Options;

import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;

/**
 * Opens a {@link HiveCatalog} ({@code metastore} = {@code hive}) from catalog options: {@code uri} (the
 * metastore's thrift:// address; else {@code hive.metastore.uris} of {@code hive-conf-dir}'s hive-site.xml),
 * {@code hive.*} client settings (passed as they are), {@code client-pool-size}, {@code sync-all-properties},
 * and the commit lock's {@code lock.enabled}, {@code lock-acquire-timeout}, {@code lock-check-max-sleep}.
 * The metastore is reached once here, so a wrong address fails at {@code CREATE CATALOG}.
 */
public final class HiveMetastoreLoader implements MetastoreLoader {
    private static final String HIVE_PREFIX = "hive.";

    @Override
    public String metastore() {
        return "hive";
    }

    @Override
    public Catalog open(Options options, WarehouseTables tables) {
        Map<String, String> hiveSettings = new HashMap<>();
        options.toMap().forEach((key, value) -> {
            if (key.startsWith(HIVE_PREFIX)) {
                hiveSettings.put(key, value);
            }
        });
        String confDir = options.get(CatalogOptions.HIVE_CONF_DIR);
        String uri = options.get(CatalogOptions.URI);
        if (uri == null || uri.isBlank()) {
            uri = uriFromConfiguration(new HiveClients.HiveSettings(null, Map.copyOf(hiveSettings), confDir));
        }
        uri = uri.trim();
        if (!uri.startsWith("thrift://")) {
            throw new IllegalArgumentException("Cannot create catalog: metastore 'hive' needs a thrift:// address in "
                    + "'uri', e.g. 'thrift://metastore-host:9083', not '" + uri + "'");
        }
        HiveClients.HiveSettings settings = new HiveClients.HiveSettings(uri, Map.copyOf(hiveSettings), confDir);
        HiveClients clients = new HiveClients(settings, options.get(CatalogOptions.CLIENT_POOL_SIZE));
        try {
            clients.run("open the catalog", c -> c.getAllDatabases());
        } catch (RuntimeException e) {
            clients.close();
            throw e;
        }
        CommitLock.Factory locks = options.get(CatalogOptions.LOCK_ENABLED) == Boolean.TRUE
                ? new HiveCommitLock.Factory(settings, options.get(CatalogOptions.LOCK_ACQUIRE_TIMEOUT),
                        options.get(CatalogOptions.LOCK_CHECK_MAX_SLEEP))
                : null;
        String owner = System.getProperty("user.name");
        HiveTableRecords records = new HiveTableRecords(options.get(CatalogOptions.SYNC_ALL_PROPERTIES), owner);
        return new HiveCatalog(tables, clients, records, owner, locks);
    }

    private static String uriFromConfiguration(HiveClients.HiveSettings settings) {
        Configuration conf = settings.configuration();
        String uri = MetastoreConf.getVar(conf, MetastoreConf.ConfVars.THRIFT_URIS);
        if (uri == null || uri.isBlank()) {
            throw new IllegalArgumentException("Cannot create catalog: metastore 'hive' needs option 'uri', the "
                    + "metastore's thrift:// address, e.g. 'thrift://metastore-host:9083'"
                    + (settings.hiveConfDir() == null ? "" : " (the hive-site.xml of 'hive-conf-dir' "
                    + settings.hiveConfDir() + " sets no hive.metastore.uris)"));
        }
        return uri;
    }
}
