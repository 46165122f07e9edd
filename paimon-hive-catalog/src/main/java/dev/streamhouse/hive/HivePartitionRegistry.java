package dev.streamhouse.hive;

import dev.streamhouse.storage.catalog.CatalogException;
import dev.streamhouse.storage.table.sink.PartitionRegistry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.thrift.TException;

/**
 * The partitions of a table with {@code metastore.partitioned-table} in a Hive metastore, as Apache Paimon's
 * Hive catalog keeps them: one per partition of the table's files, whose storage descriptor is the table's
 * with the partition's directory as location. Partitions registered by this committer are remembered (the
 * last 1,000), so a streaming job does not call the metastore on every commit.
 */
final class HivePartitionRegistry implements PartitionRegistry {
    private static final long serialVersionUID = 1L;
    private static final int REMEMBERED = 1000;

    private final HiveClients.HiveSettings settings;
    private final String database;
    private final String table;
    private transient IMetaStoreClient client;
    private transient Set<List<String>> registered;

    HivePartitionRegistry(HiveClients.HiveSettings settings, String database, String table) {
        this.settings = settings;
        this.database = database;
        this.table = table;
    }

    @Override
    public synchronized void register(List<PartitionRegistry.Partition> partitions) {
        // NULL and '' (and other values that render alike) are one metastore partition
        Map<List<String>, PartitionRegistry.Partition> distinct = new LinkedHashMap<>();
        for (PartitionRegistry.Partition p : partitions) {
            List<String> values = new ArrayList<>(p.spec().values());
            if (!registered().contains(values)) {
                distinct.putIfAbsent(values, p);
            }
        }
        List<PartitionRegistry.Partition> missing = new ArrayList<>(distinct.values());
        if (missing.isEmpty()) {
            return;
        }
        call("register partitions " + specs(missing), c -> {
            Table record = c.getTable(database, table);
            int now = (int) (System.currentTimeMillis() / 1000);
            List<org.apache.hadoop.hive.metastore.api.Partition> added = new ArrayList<>();
            for (PartitionRegistry.Partition p : missing) {
                StorageDescriptor sd = record.getSd().deepCopy();
                sd.setLocation(withSlash(record.getSd().getLocation()) + p.relativePath());
                var partition = new org.apache.hadoop.hive.metastore.api.Partition(new ArrayList<>(p.spec().values()), database, table, now, now, sd,
                        new java.util.HashMap<>());
                added.add(partition);
            }
            c.add_partitions(added, true, false);
            return null;
        });
        for (PartitionRegistry.Partition p : missing) {
            registered().add(new ArrayList<>(p.spec().values()));
        }
    }

    @Override
    public synchronized void unregister(List<LinkedHashMap<String, String>> specs) {
        call("unregister partitions " + specs, c -> {
            List<String> keys = c.getTable(database, table).getPartitionKeys().stream().map(k -> k.getName()).toList();
            for (Map<String, String> spec : specs) {
                List<String> pattern = new ArrayList<>();
                for (String key : keys) {
                    pattern.add(spec.getOrDefault(key, ""));   // "" matches any value
                }
                for (org.apache.hadoop.hive.metastore.api.Partition p : c.listPartitions(database, table, pattern, (short) -1)) {
                    try {
                        c.dropPartition(database, table, p.getValues(), false);
                    } catch (NoSuchObjectException goneMeanwhile) {
                        // another committer dropped it
                    }
                    registered().remove(p.getValues());
                }
            }
            return null;
        });
    }

    private Set<List<String>> registered() {
        if (registered == null) {
            registered = Collections.newSetFromMap(new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<List<String>, Boolean> eldest) {
                    return size() > REMEMBERED;
                }
            });
        }
        return registered;
    }

    private void call(String what, HiveClients.Call<Void> call) {
        try {
            if (client == null) {
                client = HiveClients.connect(settings, what + " of table '" + database + "." + table + "'");
            }
            call.run(client);
        } catch (TException e) {
            client.close();
            client = null;
            throw new CatalogException("Cannot " + what + " of table '" + database + "." + table + "' in "
                    + settings.where() + " (the commit itself landed; the next commit to these partitions "
                    + "registers them again): " + HiveClients.rootMessage(e));
        }
    }

    private static String withSlash(String location) {
        return location.endsWith("/") ? location : location + "/";
    }

    private static String specs(List<PartitionRegistry.Partition> partitions) {
        return partitions.stream().map(p -> p.spec().toString()).toList().toString();
    }
}
