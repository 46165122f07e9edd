package dev.streamhouse.storage.testutils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real HDFS (NameNode and one DataNode, in-process, on free loopback ports) for the tests of a class:
 * {@code @RegisterExtension static MiniDfsExtension HDFS = new MiniDfsExtension();}.
 */
public final class MiniDfsExtension implements BeforeAllCallback, AfterAllCallback {
    private MiniDFSCluster cluster;
    private Path base;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        base = Files.createTempDirectory("minidfs");
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
        conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        cluster.waitActive();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (cluster != null) {
            cluster.shutdown(true);
        }
        if (base != null && Files.exists(base)) {
            try (Stream<Path> files = Files.walk(base)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** {@code hdfs://127.0.0.1:<port>/<path>}. */
    public String uri(String path) {
        return "hdfs://127.0.0.1:" + cluster.getNameNodePort() + "/" + path;
    }
}
