package dev.streamhouse.hive;

import dev.streamhouse.storage.catalog.CatalogException;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;

/**
 * Thrift clients of one Hive metastore, kept open between calls ({@code client-pool-size} idle ones at
 * most; a client is not thread-safe, so each call borrows one). A client whose connection broke is
 * closed, not kept. Every failure becomes a {@link CatalogException} that names the metastore and what
 * was being done.
 */
final class HiveClients implements AutoCloseable {
    private final HiveSettings settings;
    private final BlockingQueue<IMetaStoreClient> idle;

    HiveClients(HiveSettings settings, int poolSize) {
        this.settings = settings;
        this.idle = new ArrayBlockingQueue<>(Math.max(1, poolSize));
    }

    String where() {
        return settings.where();
    }

    HiveSettings settings() {
        return settings;
    }

    /** Runs {@code call} on a client; {@code what} says what it does, e.g. "list the databases". */
    <T> T run(String what, Call<T> call) {
        IMetaStoreClient client = borrow(what);
        boolean healthy = true;
        try {
            return call.run(client);
        } catch (TTransportException e) {
            healthy = false;
            throw failed(what, e);
        } catch (TException e) {
            throw failed(what, e);
        } catch (RuntimeException e) {
            healthy = false;
            throw e;
        } finally {
            if (!healthy || !idle.offer(client)) {
                client.close();
            }
        }
    }

    private IMetaStoreClient borrow(String what) {
        IMetaStoreClient client = idle.poll();
        return client != null ? client : connect(settings, what);
    }

    /** A new client of the metastore {@code settings} name. */
    static IMetaStoreClient connect(HiveSettings settings, String what) {
        Configuration conf = settings.configuration();
        try {
            return new HiveMetaStoreClient(conf);
        } catch (TException | RuntimeException e) {
            throw new CatalogException("Cannot " + what + ": cannot connect to " + settings.where() + " ("
                    + rootMessage(e) + "); check 'uri' and that the metastore is running and reachable");
        }
    }

    /** "Cannot {what} in {where}: {the metastore's message}". */
    CatalogException failed(String what, TException e) {
        CatalogException failure = new CatalogException("Cannot " + what + " in " + settings.where() + ": "
                + rootMessage(e));
        // kept as suppressed, not as the cause: tools that show the root cause show this message
        failure.addSuppressed(e);
        return failure;
    }

    /** The message of the innermost cause, its first line only. */
    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        if (message == null || message.isBlank()) {
            return root.getClass().getSimpleName();
        }
        // the client puts whole stack traces into some messages ("Could not connect to meta store ...
        // Most recent failure: <trace>"): its first line says what happened
        return message.lines().findFirst().orElse(message).trim();
    }

    @Override
    public void close() {
        IMetaStoreClient client;
        while ((client = idle.poll()) != null) {
            client.close();
        }
    }

    /** A call on one client. */
    @FunctionalInterface
    interface Call<T> {
        T run(IMetaStoreClient client) throws TException;
    }

    /** The metastore's address and client settings. */
    record HiveSettings(String uri, Map<String, String> hiveSettings, String hiveConfDir)
            implements java.io.Serializable {

        String where() {
            return "the Hive metastore " + uri;
        }

        Configuration configuration() {
            Configuration conf = MetastoreConf.newMetastoreConf();
            if (hiveConfDir != null) {
                conf.addResource(new org.apache.hadoop.fs.Path(hiveConfDir, "hive-site.xml"));
            }
            hiveSettings.forEach(conf::set);
            if (uri != null) {
                MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, uri);
            }
            return conf;
        }
    }
}
