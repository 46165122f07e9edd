package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The tag and rollback procedures through Flink SQL, in Apache Paimon's positional and named forms,
 * with {@code t$tags} and reads by {@code scan.tag-name}.
 */
class TagProceduresITCase extends CatalogITCaseBase {

    @BeforeEach
    void writeThreeSnapshots() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        sql("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
        sql("INSERT INTO t VALUES (1, 'a2')");
        sql("INSERT INTO t VALUES (3, 'c')");
    }

    private String rootMessage(String statement) {
        Throwable root = catchThrowable(() -> rows(statement));
        assertThat(root).as(statement).isNotNull();
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    private Path tableDir() {
        return warehouse.resolve("default.db").resolve("t");
    }

    @Test
    void createTagsAndReadThem() {
        assertThat(rows("CALL sys.create_tag('default.t', 'first', 1)")).containsExactly("+I[Success]");
        assertThat(rows("CALL sys.create_tag(`table` => 'default.t', tag => 'latest', time_retained => '1 d')"))
                .containsExactly("+I[Success]");
        assertThat(sortedRows("SELECT * FROM t /*+ OPTIONS('scan.tag-name' = 'first') */"))
                .containsExactly("+I[1, a]", "+I[2, b]");
        assertThat(sortedRows("SELECT * FROM t /*+ OPTIONS('scan.tag-name' = 'latest') */"))
                .containsExactly("+I[1, a2]", "+I[2, b]", "+I[3, c]");
        assertThat(sortedRows("SELECT tag_name, snapshot_id, schema_id, record_count, create_time IS NULL, time_retained"
                + " FROM `t$tags`")).containsExactly("+I[first, 1, 0, 2, true, null]",
                "+I[latest, 3, 0, 4, false, PT24H]");
        assertThat(rootMessage("CALL sys.create_tag('default.t', 'first', 2)")).contains("Cannot create tag 'first'")
                .contains("already exists");
        assertThat(rootMessage("CALL sys.create_tag('default.t', 'x', 9)")).contains("snapshot 9 does not exist");
        assertThat(rootMessage("SELECT * FROM t /*+ OPTIONS('scan.tag-name' = 'nope') */"))
                .contains("Cannot read tag 'nope'");
    }

    @Test
    void incrementalBetweenTwoTagsReadsWhatChangedBetweenThem() {
        rows("CALL sys.create_tag('default.t', 'first', 1)");
        rows("CALL sys.create_tag('default.t', 'third', 3)");
        assertThat(sortedRows("SELECT * FROM t /*+ OPTIONS('incremental-between' = 'first,third') */"))
                .containsExactly("+I[1, a2]", "+I[3, c]");
        assertThat(sortedRows("SELECT * FROM t /*+ OPTIONS('incremental-between' = '2,3', "
                + "'incremental-between-scan-mode' = 'diff') */")).containsExactly("+I[3, c]");
        assertThat(rootMessage("SELECT * FROM t /*+ OPTIONS('incremental-between' = 'first,nope') */"))
                .contains("it names neither two existing tags nor two snapshot ids");
    }

    @Test
    void replaceRenameDeleteAndExpire() {
        rows("CALL sys.create_tag('default.t', 'a', 1)");
        rows("CALL sys.create_tag('default.t', 'b', 2)");
        assertThat(rows("CALL sys.replace_tag(`table` => 'default.t', tag => 'a', snapshot_id => CAST(3 AS BIGINT))"))
                .containsExactly("+I[Success]");
        assertThat(rows("CALL sys.rename_tag('default.t', 'b', 'c')"))
                .containsExactly("+I[Rename [b] to [c] successfully.]");
        assertThat(sortedRows("SELECT tag_name, snapshot_id FROM `t$tags`")).containsExactly("+I[a, 3]", "+I[c, 2]");
        assertThat(rows("CALL sys.expire_tags('default.t')")).containsExactly("+I[No expired tags.]");
        assertThat(rows("CALL sys.expire_tags(`table` => 'default.t', older_than => '2999-01-01 00:00:00')"))
                .containsExactlyInAnyOrder("+I[a]", "+I[c]");
        rows("CALL sys.create_tag('default.t', 'x', 1)");
        rows("CALL sys.create_tag('default.t', 'y', 2)");
        assertThat(rows("CALL sys.delete_tag('default.t', 'x,y,missing')")).containsExactly("+I[Success]");
        assertThat(rows("SELECT * FROM `t$tags`")).isEmpty();
        assertThat(rootMessage("CALL sys.create_tag('default.t', 'z', 1, 'soon')"))
                .contains("argument 'time_retained'");
    }

    @Test
    void tagsFromTimestampAndWatermark() {
        long t1 = Long.parseLong(rows("SELECT CAST(UNIX_TIMESTAMP(CAST(commit_time AS STRING)) AS BIGINT) FROM"
                + " `t$snapshots` WHERE snapshot_id = 1").get(0).replaceAll("[^0-9]", "")) * 1000;
        List<String> created = rows("CALL sys.create_tag_from_timestamp('default.t', 'ts', " + t1 + ")");
        assertThat(created).singleElement().asString().startsWith("+I[ts, 1, ").endsWith(", null]");
        assertThat(rootMessage("CALL sys.create_tag_from_watermark(`table` => 'default.t', tag => 'wm',"
                + " `watermark` => CAST(0 AS BIGINT))")).contains("no snapshot has a watermark of at least 0");
    }

    @Test
    void rollbackToSnapshotAndTag() throws Exception {
        rows("CALL sys.create_tag('default.t', 'one', 1)");
        rows("CALL sys.create_tag('default.t', 'three', 3)");
        assertThat(rows("CALL sys.rollback_to(`table` => 'default.t', snapshot_id => CAST(2 AS BIGINT))"))
                .containsExactly("+I[3, 2]");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1, a2]", "+I[2, b]");
        assertThat(rows("SELECT tag_name FROM `t$tags`")).containsExactly("+I[one]");

        // snapshot 1 expired (deleted by hand here): rolling back to its tag writes it again
        Files.delete(tableDir().resolve("snapshot").resolve("snapshot-1"));
        assertThat(rows("CALL sys.rollback_to('default.t', 'one')")).containsExactly("+I[2, 1]");
        assertThat(sortedRows("SELECT snapshot_id FROM `t$snapshots`")).containsExactly("+I[1]");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1, a]", "+I[2, b]");

        sql("INSERT INTO t VALUES (4, 'd')");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1, a]", "+I[2, b]", "+I[4, d]");
        assertThat(rows("CALL sys.rollback_to_timestamp('default.t', CAST(9999999999999 AS BIGINT))"))
                .containsExactly("+I[2, 2]");
        assertThat(rootMessage("CALL sys.rollback_to_timestamp(`table` => 'default.t', `timestamp` => CAST(0 AS BIGINT))"))
                .contains("no retained snapshot was committed at or before 0");
        assertThat(rootMessage("CALL sys.rollback_to_watermark('default.t', CAST(5 AS BIGINT))"))
                .contains("no retained snapshot had a watermark of at most 5");
        assertThat(rootMessage("CALL sys.rollback_to(`table` => 'default.t')")).contains("give a tag or a snapshot_id");
    }
}
