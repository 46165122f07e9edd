package dev.streamhouse.flink.catalog.testutils;

import dev.streamhouse.testing.hive.HiveMetastoreExtension;

import java.util.HashMap;
import java.util.Map;

/**
 * The catalog options of the suites that run on a Hive metastore: the JVM's shared metastore
 * ({@link HiveMetastoreExtension#sharedPerJvm()}, which each such class registers and which is emptied
 * after every test) behind {@code metastore} = {@code hive}.
 */
public final class HiveMetastores {
    private HiveMetastores() {}

    /** {@code options} plus those of a hive metastore catalog on the shared metastore. */
    public static Map<String, String> onHive(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("metastore", "hive");
        all.put("uri", HiveMetastoreExtension.sharedPerJvm().uri());
        return all;
    }
}
