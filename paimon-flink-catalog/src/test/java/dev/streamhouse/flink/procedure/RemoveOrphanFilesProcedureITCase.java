package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;

/** {@code CALL sys.remove_orphan_files} through Flink SQL, with Apache Paimon's arguments and output. */
class RemoveOrphanFilesProcedureITCase extends CatalogITCaseBase {
    private Path oldOrphan;
    private Path youngOrphan;

    @BeforeEach
    void tableWithOrphans() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'y')");
        sql("INSERT INTO t VALUES (3, 'c', 'x')");
        Path table = warehouse.resolve("default.db/t");
        oldOrphan = table.resolve("dt=x/bucket-0/data-orphan-0.parquet");
        Files.writeString(oldOrphan, "12345");
        Files.setLastModifiedTime(oldOrphan, FileTime.fromMillis(System.currentTimeMillis() - TimeUnit.DAYS.toMillis(3)));
        youngOrphan = table.resolve("manifest/manifest-young-0");
        Files.writeString(youngOrphan, "young");
    }

    @Test
    void dryRunReportsAndTheRealRunRemovesOldOrphansOnly() {
        assertThat(rows("CALL sys.remove_orphan_files(`table` => 'default.t', dry_run => true)"))
                .containsExactly("+I[1]", "+I[5]");
        assertThat(oldOrphan).exists();

        assertThat(rows("CALL sys.remove_orphan_files('default.t')")).containsExactly("+I[1]", "+I[5]");
        assertThat(oldOrphan).doesNotExist();
        assertThat(youngOrphan).exists();
        assertThat(sortedRows("SELECT id FROM t")).containsExactly("+I[1]", "+I[2]", "+I[3]");
    }

    @Test
    void olderThanModeAndWholeDatabases() {
        // an older_than before the orphan's time keeps it; then the whole database, in local mode
        assertThat(rows("CALL sys.remove_orphan_files(`table` => 'default.t', older_than => '2000-01-01 00:00:00')"))
                .containsExactly("+I[0]", "+I[0]");
        assertThat(rows("CALL sys.remove_orphan_files(`table` => 'default.*', mode => 'local')"))
                .containsExactly("+I[1]", "+I[5]");
        assertThat(oldOrphan).doesNotExist();
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> rows("CALL sys.remove_orphan_files(`table` => 'default.t', mode => 'cluster')"))
                .hasStackTraceContaining("Only 'DISTRIBUTED' and 'LOCAL' are supported");
        assertThatThrownBy(() -> rows("CALL sys.remove_orphan_files(`table` => 'default.t', older_than => 'yesterday')"))
                .hasStackTraceContaining("older_than");
        assertThatThrownBy(() -> rows("CALL sys.remove_orphan_files(`table` => 'default.t', older_than => '2999-01-01')"))
                .hasStackTraceContaining("must be in the past");
        assertThat(oldOrphan).exists();
    }
}
