package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;

/** {@code t$consumers}, {@code CALL sys.reset_consumer} and {@code CALL sys.clear_consumers} through Flink SQL. */
class ConsumerProceduresITCase extends CatalogITCaseBase {

    @BeforeEach
    void twoSnapshots() {
        sql("CREATE TABLE t (id INT, v STRING)");
        sql("INSERT INTO t VALUES (1, 'a')");
        sql("INSERT INTO t VALUES (2, 'b')");
    }

    @Test
    void resetCreatesMovesAndDeletesConsumers() throws Exception {
        assertThat(rows("SELECT * FROM `t$consumers`")).isEmpty();

        assertThat(rows("CALL sys.reset_consumer('default.t', 'job1', CAST(2 AS BIGINT))")).containsExactly("+I[Success]");
        assertThat(rows("CALL sys.reset_consumer(`table` => 't', consumer_id => 'job2', next_snapshot_id => CAST(1 AS BIGINT))"))
                .containsExactly("+I[Success]");
        assertThat(sortedRows("SELECT * FROM `t$consumers`")).containsExactly("+I[job1, 2]", "+I[job2, 1]");
        assertThat(Files.readString(warehouse.resolve("default.db/t/consumer/consumer-job1")))
                .isEqualTo("{\n  \"nextSnapshot\" : 2\n}");

        assertThatThrownBy(() -> rows("CALL sys.reset_consumer('default.t', 'job1', CAST(9 AS BIGINT))"))
                .hasStackTraceContaining("snapshot 9").hasStackTraceContaining("does not exist");

        rows("CALL sys.reset_consumer(`table` => 'default.t', consumer_id => 'job2')");
        assertThat(rows("SELECT consumer_id, next_snapshot_id FROM `t$consumers`")).containsExactly("+I[job1, 2]");
    }

    @Test
    void clearDeletesTheMatchingConsumers() {
        for (String id : new String[] {"etl-1", "etl-2", "etl-keep", "other"}) {
            rows("CALL sys.reset_consumer('default.t', '" + id + "', CAST(1 AS BIGINT))");
        }
        assertThat(rows("CALL sys.clear_consumers(`table` => 'default.t', including_consumers => 'etl-.*',"
                + " excluding_consumers => 'etl-keep')")).containsExactly("+I[Success]");
        assertThat(sortedRows("SELECT consumer_id FROM `t$consumers`")).containsExactly("+I[etl-keep]", "+I[other]");

        rows("CALL sys.clear_consumers('default.t')");
        assertThat(rows("SELECT * FROM `t$consumers`")).isEmpty();

        assertThatThrownBy(() -> rows("CALL sys.clear_consumers('default.t', '(')"))
                .hasStackTraceContaining("including_consumers").hasStackTraceContaining("regular expression");
    }
}
