package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.testutils.MiniDfsExtension;

import java.util.UUID;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link StreamingSqlITCase} on an {@code hdfs://} warehouse (an in-process HDFS). */
class HdfsStreamingSqlITCase extends StreamingSqlITCase {
    @RegisterExtension
    static final MiniDfsExtension HDFS = new MiniDfsExtension();

    private final String location = "warehouse-" + UUID.randomUUID();

    @Override
    protected String warehouseUri() {
        return HDFS.uri(location);
    }
}
