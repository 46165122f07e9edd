package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;

/**
 * {@code CALL sys.expire_partitions}, {@code sys.drop_partition} and {@code sys.mark_partition_done}
 * through Flink SQL, and partition expiration by a writer's commit ({@code partition.expiration-time}).
 */
class PartitionProceduresITCase extends CatalogITCaseBase {

    @BeforeEach
    void partitionedTable() {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO t VALUES (1, 'a', '20200101'), (2, 'b', '20200102'), (3, 'c', '29990101'),"
                + " (4, 'd', 'no-date')");
    }

    @Test
    void expirePartitionsDropsOldPartitionsAndReportsThem() {
        assertThat(rows("CALL sys.expire_partitions(`table` => 'default.t', expiration_time => '1 d',"
                + " timestamp_formatter => 'yyyyMMdd')")).containsExactly("+I[dt=20200101]", "+I[dt=20200102]");
        assertThat(sortedRows("SELECT id FROM t")).containsExactly("+I[3]", "+I[4]");
        assertThat(rows("SELECT commit_kind FROM `t$snapshots` ORDER BY snapshot_id DESC LIMIT 1"))
                .containsExactly("+I[OVERWRITE]");

        assertThat(rows("CALL sys.expire_partitions('default.t', '1 d', 'yyyyMMdd')"))
                .containsExactly("+I[No expired partitions.]");
    }

    @Test
    void expirePartitionsHonoursMaxExpiresAndStrategyAndRefusesMissingTime() {
        assertThat(rows("CALL sys.expire_partitions(`table` => 'default.t', expiration_time => '1 d',"
                + " timestamp_formatter => 'yyyyMMdd', max_expires => 1)")).containsExactly("+I[dt=20200101]");
        // every file was just written: nothing is a day old by update time
        assertThat(rows("CALL sys.expire_partitions(`table` => 'default.t', expiration_time => '1 d',"
                + " expire_strategy => 'update-time')")).containsExactly("+I[No expired partitions.]");
        assertThatThrownBy(() -> rows("CALL sys.expire_partitions(`table` => 'default.t')"))
                .hasStackTraceContaining("partition.expiration-time");
        assertThatThrownBy(() -> rows("CALL sys.expire_partitions(`table` => 'default.t', expiration_time => '1 d',"
                + " expire_strategy => 'custom')")).hasStackTraceContaining("custom");
    }

    @Test
    void aWritersCommitExpiresPartitionsOnceTheCheckIntervalHasPassed() {
        sql("ALTER TABLE t SET ('partition.expiration-time' = '1 d', 'partition.timestamp-formatter' = 'yyyyMMdd',"
                + " 'partition.expiration-check-interval' = '0 s')");
        sql("INSERT INTO t VALUES (5, 'e', '29990102')");
        assertThat(sortedRows("SELECT DISTINCT dt FROM t"))
                .containsExactly("+I[29990101]", "+I[29990102]", "+I[no-date]");
    }

    @Test
    void dropPartitionTakesPositionalSpecs() {
        assertThat(rows("CALL sys.drop_partition('default.t', 'dt=20200101', 'dt=no-date')"))
                .containsExactly("+I[Success]");
        assertThat(sortedRows("SELECT id FROM t")).containsExactly("+I[2]", "+I[3]");
        assertThatThrownBy(() -> rows("CALL sys.drop_partition('default.t', 'nope=1')"))
                .hasStackTraceContaining("nope");
    }

    @Test
    void markPartitionDoneWritesSuccessFilesAndRefusesOtherActions() throws Exception {
        assertThat(rows("CALL sys.mark_partition_done(`table` => 'default.t', partitions => 'dt=20200101;dt=29990101')"))
                .containsExactly("+I[Success]");
        String json = Files.readString(warehouse.resolve("default.db/t/dt=20200101/_SUCCESS"));
        assertThat(json).contains("\"creationTime\" : ").contains("\"modificationTime\" : ");
        assertThat(warehouse.resolve("default.db/t/dt=29990101/_SUCCESS")).exists();
        assertThat(sortedRows("SELECT id FROM t")).hasSize(4);

        // Other actions are refused before they are stored (a table Paimon wrote with one is refused by the CALL).
        assertThatThrownBy(() -> sql("ALTER TABLE t SET ('partition.mark-done-action' = 'success-file,done-partition')"))
                .hasStackTraceContaining("'done-partition'").hasStackTraceContaining("only 'success-file'");
        assertThat(rows("CALL sys.mark_partition_done('default.t', 'dt=20200102')")).containsExactly("+I[Success]");
    }
}
