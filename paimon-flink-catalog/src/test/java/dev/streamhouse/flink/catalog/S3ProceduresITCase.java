package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.fs.s3.S3ProxyExtension;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Compaction, expiration, tags, rollback and the metadata system tables on an {@code s3://} warehouse,
 * through Flink SQL.
 */
class S3ProceduresITCase extends CatalogITCaseBase {
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

    @Test
    void compactExpireTagAndRollBackOnS3() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', "
                + "'snapshot.num-retained.min' = '1', 'snapshot.num-retained.max' = '100', "
                + "'snapshot.time-retained' = '1 h')");
        sql("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
        sql("INSERT INTO t VALUES (2, 'B'), (3, 'c')");
        sql("CALL sys.create_tag('default.t', 'two', 2)");
        sql("INSERT INTO t VALUES (1, 'A')");
        assertThat(rows("SELECT file_count FROM `t$buckets`")).singleElement().asString().isNotEqualTo("+I[1]");

        assertThat(rows("CALL sys.compact('default.t')")).isNotEmpty();
        assertThat(rows("SELECT file_count FROM `t$buckets`")).containsExactly("+I[1]");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1, A]", "+I[2, B]", "+I[3, c]");
        assertThat(rows("SELECT commit_kind FROM `t$snapshots` ORDER BY snapshot_id DESC LIMIT 1"))
                .containsExactly("+I[COMPACT]");

        // Expire everything but the latest snapshot; the tag keeps its files readable.
        sql("CALL sys.expire_snapshots(`table` => 'default.t', retain_max => 1)");
        assertThat(rows("SELECT COUNT(*) FROM `t$snapshots`")).containsExactly("+I[1]");
        assertThat(sortedRows("SELECT * FROM t /*+ OPTIONS('scan.tag-name' = 'two') */"))
                .containsExactly("+I[1, a]", "+I[2, B]", "+I[3, c]");
        assertThat(rows("SELECT tag_name, snapshot_id FROM `t$tags`")).containsExactly("+I[two, 2]");

        sql("CALL sys.rollback_to(`table` => 'default.t', tag => 'two')");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1, a]", "+I[2, B]", "+I[3, c]");
        sql("INSERT INTO t VALUES (4, 'd')");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1, a]", "+I[2, B]", "+I[3, c]", "+I[4, d]");
        assertThat(rows("SELECT COUNT(*) FROM `t$files`")).singleElement().asString().isNotEqualTo("+I[0]");
    }
}
