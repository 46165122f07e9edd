package dev.streamhouse.hive;

import dev.streamhouse.fs.s3.S3CommitLockContract;
import dev.streamhouse.fs.s3.S3ProxyExtension;
import dev.streamhouse.testing.hive.HiveMetastoreExtension;

import java.util.Map;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link S3CommitLockContract} with a Hive metastore's table lock: racing committers on a store that
 * ignores conditional writes all land; without the lock the store is refused. The metastore reaches the
 * store too (it checks and creates the locations of databases and tables), through S3A.
 */
class HiveS3CommitLockTest extends S3CommitLockContract {
    @RegisterExtension
    static final HiveMetastoreExtension METASTORE = new HiveMetastoreExtension().withHadoopSettings(() -> Map.of(
            "fs.s3a.endpoint", S3.endpoint(),
            "fs.s3a.access.key", S3ProxyExtension.ACCESS_KEY,
            "fs.s3a.secret.key", S3ProxyExtension.SECRET_KEY,
            "fs.s3a.path.style.access", "true",
            "fs.s3a.endpoint.region", "us-east-1"));

    @Override
    protected Map<String, String> metastoreOptions() {
        return Map.of("metastore", "hive", "uri", METASTORE.uri());
    }
}
