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

    private List<String> changelogFiles() throws Exception {
        java.nio.file.Path dir = warehouse.resolve("default.db/c/changelog");
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<java.nio.file.Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("changelog-")).sorted()
                    .toList();
        }
    }

    @Test
    void expireChangelogsExpiresTheLongLivedChangelogsWithPaimonsArguments() throws Exception {
        sql("CREATE TABLE c (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', "
                + "'changelog-producer' = 'input', 'snapshot.num-retained.min' = '1', "
                + "'snapshot.num-retained.max' = '2', 'changelog.num-retained.max' = '10')");
        for (int i = 1; i <= 5; i++) {
            sql("INSERT INTO c VALUES (%s, 'v%s')", i, i).await();
        }
        List<String> ids = sortedRows("SELECT snapshot_id FROM `c$snapshots`");
        long latest = Long.parseLong(ids.get(ids.size() - 1).replaceAll("\\D", ""));
        assertThat(ids).hasSize(2);
        List<String> kept = new java.util.ArrayList<>();
        for (long id = 1; id <= latest - 2; id++) {
            kept.add("changelog-" + id);
        }
        assertThat(changelogFiles()).isEqualTo(kept);
        // The changes of expired snapshots are read from changelog/.
        assertThat(sortedRows("SELECT * FROM c /*+ OPTIONS('incremental-between' = '1,%s', "
                + "'incremental-between-scan-mode' = 'changelog') */", latest))
                .containsExactly("+I[2, v2]", "+I[3, v3]", "+I[4, v4]", "+I[5, v5]");

        // Keep the newest 3 (counting the snapshots): changelogs 1 and 2 go.
        assertThat(rows("CALL sys.expire_changelogs(`table` => 'default.c', retain_max => 3)"))
                .containsExactly("+I[" + (latest - 3) + "]");
        assertThat(changelogFiles()).containsExactly("changelog-" + (latest - 2));
        assertThat(rows("CALL sys.expire_changelogs(`table` => 'default.c', delete_all => true)"))
                .containsExactly("+I[Delete all separated changelogs success.]");
        assertThat(changelogFiles()).isEmpty();
        assertThat(sortedRows("SELECT * FROM c"))
                .containsExactly("+I[1, v1]", "+I[2, v2]", "+I[3, v3]", "+I[4, v4]", "+I[5, v5]");
        assertThatThrownBy(() -> rows("CALL sys.expire_changelogs(`table` => 'default.c', max_deletes => 0)"))
                .hasStackTraceContaining("'max_deletes' = '0'");
    }
}
