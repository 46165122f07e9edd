package dev.streamhouse.storage.maintenance.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.health.HealthFinding;
import dev.streamhouse.storage.maintenance.health.TableHealth;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The optimizer's steps in this JVM, and how it handles compactions whose commits conflict. */
class TableOptimizerTest {
    @TempDir
    java.nio.file.Path dir;

    private FileStoreTable table;
    private List<String> rows;

    /** An append table with five one-row files in one bucket of partition d0: small files. */
    @BeforeEach
    void fiveSmallFiles() throws Exception {
        table = TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/t"),
                TestTables.simpleSchema("write-only", "true"));
        for (int i = 0; i < 5; i++) {
            TestTables.write(table, TestTables.rows(i, 1, 1));
        }
        rows = TestTables.readAll(table);
        assertThat(TableHealth.of(table).check()).extracting(HealthFinding::check).containsExactly("small_files");
    }

    @Test
    void lightCompactsTheBucketsWithSmallFilesInThisJvm() throws Exception {
        TableOptimizer.Result result = TableOptimizer.of(table).run(OptimizeLevel.LIGHT);

        assertThat(result.before()).extracting(HealthFinding::scope).containsExactly("partition=dt=d0, bucket=0");
        assertThat(result.actions()).extracting(TableOptimizer.Action::name)
                .containsExactly("compact", "expire_snapshots");
        assertThat(result.actions().get(0).outcome()).startsWith("minor: Compacted 1 of 1 buckets into snapshot 6");
        assertThat(result.after()).isEmpty();
        assertThat(TestTables.readAll(table)).isEqualTo(rows);
    }

    @Test
    void aConflictingCompactionIsPlannedAndRunAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        TableOptimizer optimizer = TableOptimizer.of(table);
        TableOptimizer.Result result = optimizer.run(OptimizeLevel.MODERATE, (buckets, full) -> {
            if (calls.incrementAndGet() < 3) {
                throw new IllegalStateException("job failed",
                        new CommitConflictException("Cannot commit: file x is no longer live", null));
            }
            return "compacted " + buckets.size();
        });

        assertThat(calls).hasValue(3);
        assertThat(result.actions()).extracting(TableOptimizer.Action::outcome).containsExactly(
                "attempt 1 conflicted with a concurrent commit and committed nothing; planning again",
                "attempt 2 conflicted with a concurrent commit and committed nothing; planning again",
                "full: compacted 1 (attempt 3)",
                "0 snapshots expired");
    }

    @Test
    void aCompactionThatKeepsConflictingIsAbandonedWithAMessageAndNothingChanges() throws Exception {
        TableOptimizer.Result result = TableOptimizer.of(table).run(OptimizeLevel.MODERATE, (buckets, full) -> {
            throw new CommitConflictException("Cannot commit: file x is no longer live", null);
        });

        assertThat(result.actions().get(2).outcome()).startsWith("abandoned after 3 conflicting commits (a concurrent "
                + "writer compacted the same files): nothing was committed and no row changed; run optimize again "
                + "later. Last conflict: Cannot commit: file x is no longer live");
        assertThat(result.after()).extracting(HealthFinding::check).containsExactly("small_files");
        assertThat(TestTables.readAll(table)).isEqualTo(rows);
    }

    @Test
    void otherFailuresAreThrown() {
        assertThatThrownBy(() -> TableOptimizer.of(table).run(OptimizeLevel.LIGHT, (buckets, full) -> {
            throw new UncheckedIOException(new java.io.IOException("disk full"));
        })).isInstanceOf(UncheckedIOException.class).hasMessageContaining("disk full");
        assertThatThrownBy(() -> OptimizeLevel.parse("most"))
                .hasMessage("Cannot optimize: unknown level 'most'; expected 'light', 'moderate' or 'full'");
    }
}
