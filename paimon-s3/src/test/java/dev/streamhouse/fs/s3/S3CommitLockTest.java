package dev.streamhouse.fs.s3;

import java.util.Map;

/** {@link S3CommitLockContract} with a jdbc metastore's lock (a SQLite file). */
class S3CommitLockTest extends S3CommitLockContract {
    @Override
    protected Map<String, String> metastoreOptions() {
        return Map.of("metastore", "jdbc", "uri", "jdbc:sqlite:" + dir.resolve("catalog.sqlite"));
    }
}
