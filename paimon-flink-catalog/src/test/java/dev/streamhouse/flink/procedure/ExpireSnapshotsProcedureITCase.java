package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code CALL sys.expire_snapshots} and {@code sys.expire_changelogs} through Flink SQL, with Apache
 * Paimon's arguments and output (the number of expired snapshots).
 */
class ExpireSnapshotsProcedureITCase extends CatalogITCaseBase {

    @BeforeEach
    void writeFiveSnapshots() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        sql("INSERT INTO t VALUES (1, 'a'), (2, 'b')").await();
        sql("INSERT INTO t VALUES (1, 'a2')").await();
        sql("INSERT INTO t VALUES (3, 'c')").await();
        sql("INSERT INTO t VALUES (2, 'b4')").await();
        sql("INSERT INTO t VALUES (4, 'd')").await();
    }

    private List<String> snapshotIds() {
        return sortedRows("SELECT snapshot_id FROM `t$snapshots`");
    }

    private long snapshotFiles() throws Exception {
        try (Stream<java.nio.file.Path> files = Files.list(warehouse.resolve("default.db/t/snapshot"))) {
            return files.filter(p -> p.getFileName().toString().startsWith("snapshot-")).count();
        }
    }

    @Test
    void namedArgumentsExpireAndReturnTheCount() throws Exception {
        List<String> before = sortedRows("SELECT * FROM t");
        long latest = Long.parseLong(snapshotIds().get(snapshotIds().size() - 1).replaceAll("\\D", ""));

        assertThat(rows("CALL sys.expire_snapshots(`table` => 'default.t', retain_max => 2, retain_min => 1)"))
                .containsExactly("+I[" + (latest - 2) + "]");

        assertThat(snapshotFiles()).isEqualTo(2);
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(before);
        assertThat(sortedRows("SELECT * FROM t /*+ OPTIONS('scan.snapshot-id' = '%s') */", latest - 1)).isNotEmpty();
        assertThat(rows("CALL sys.expire_snapshots(`table` => 'default.t', retain_max => 2, retain_min => 1)"))
                .containsExactly("+I[0]");
    }

    @Test
    void positionalArgumentsWithOlderThanAndMaxDeletes() throws Exception {
        // Everything is older than a time in the future; at most 2 per call, at least 1 kept.
        assertThat(rows("CALL sys.expire_snapshots('default.t', 10, 1, '2999-01-01 00:00:00', 2)"))
                .containsExactly("+I[2]");
        assertThat(rows("CALL sys.expire_snapshots(`table` => 't', retain_min => 1, older_than => '2999-01-01',"
                + " options => 'snapshot.expire.limit=1000')")).singleElement().asString().isNotEqualTo("+I[0]");
        assertThat(snapshotFiles()).isEqualTo(1);
        assertThat(sortedRows("SELECT * FROM t"))
                .containsExactly("+I[1, a2]", "+I[2, b4]", "+I[3, c]", "+I[4, d]");
        // The defaults (keep 10, 1 hour) keep young snapshots.
        sql("INSERT INTO t VALUES (5, 'e')").await();
        assertThat(rows("CALL sys.expire_snapshots('default.t')")).containsExactly("+I[0]");
    }

    @Test
    void badArgumentsAreRefusedNamingThem() {
        assertThatThrownBy(() -> rows("CALL sys.expire_snapshots(`table` => 'default.t', retain_max => 2)"))
                .hasStackTraceContaining("is smaller than the fewest (10");
        assertThatThrownBy(() -> rows("CALL sys.expire_snapshots(`table` => 'default.t', older_than => 'yesterday')"))
                .hasStackTraceContaining("'older_than' = 'yesterday'");
        assertThatThrownBy(() -> rows("CALL sys.expire_snapshots(`table` => 'default.t', max_deletes => 0)"))
                .hasStackTraceContaining("'max_deletes' = '0': it must be at least 1");
        assertThatThrownBy(() -> rows("CALL sys.expire_snapshots('default.missing')"))
                .hasStackTraceContaining("missing");
    }

    @Test
    void expireChangelogsFindsNoLongLivedChangelogs() {
        assertThat(rows("CALL sys.expire_changelogs(`table` => 'default.t', retain_max => 2)"))
                .containsExactly("+I[0]");
        assertThat(rows("CALL sys.expire_changelogs(`table` => 'default.t', delete_all => true)"))
                .containsExactly("+I[Delete all separated changelogs success.]");
    }
}
