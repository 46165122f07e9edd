package dev.streamhouse.flink.catalog;

import dev.streamhouse.fs.s3.S3ProxyExtension;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link LookupJoinITCase} on an {@code s3://} warehouse (an S3-compatible server on loopback). */
class S3LookupJoinITCase extends LookupJoinITCase {
    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    private final String location = "warehouse-" + UUID.randomUUID();

    @Override
    protected String warehouseUri() {
        return S3.uri(location);
    }

    @Override
    protected Map<String, String> fileSystemOptions() {
        return S3.s3Options();
    }
}
