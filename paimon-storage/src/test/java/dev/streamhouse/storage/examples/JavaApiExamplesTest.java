package dev.streamhouse.storage.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.system.SystemTable;
import dev.streamhouse.storage.table.system.SystemTables;
import dev.streamhouse.storage.types.DataTypes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage Java API as docs/java-api.md shows it: the page quotes these lines, and this test runs
 * them. A primary-key table written by a "streaming" writer that commits per checkpoint id and, after
 * a restart, recommits only what the table does not have yet; reads of the latest and an older
 * snapshot, with a filter; a tag, a rollback to it, and the {@code $snapshots} system table.
 */
class JavaApiExamplesTest {
    @TempDir
    Path warehouse;

    @Test
    void primaryKeyTableCommittedPerCheckpointReadTaggedAndRolledBack() throws Exception {
        try (Catalog catalog = CatalogFactory.createCatalog(Options.of("warehouse", warehouse.toString()))) {
            catalog.createDatabase("shop", true);
            Identifier id = Identifier.of("shop", "users");
            catalog.createTable(id, Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("name", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .build(), false);
            Table table = catalog.getTable(id);

            // A streaming writer commits once per checkpoint, under a commit user that stays the same
            // across restarts of the job.
            try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("users-job")) {
                write.write(GenericRow.of(1L, BinaryString.fromString("alice")));
                write.write(GenericRow.of(2L, BinaryString.fromString("bob")));
                commit.commit(1, write.prepareCommit());                       // checkpoint 1: snapshot 1

                write.write(GenericRow.ofKind(RowKind.UPDATE_AFTER, 1L, BinaryString.fromString("alice m.")));
                write.write(GenericRow.ofKind(RowKind.DELETE, 2L, null));
                commit.commit(2, write.prepareCommit());                       // checkpoint 2: snapshot 2
            }

            // After a restart, the job asks which of its restored checkpoints are not committed yet.
            try (TableCommit restarted = table.newStreamCommit("users-job")) {
                assertThat(restarted.filterCommitted(List.of(2L, 3L))).containsExactly(3L);
            }

            assertThat(rows(table.newReadBuilder())).containsExactly("1 alice m.");
            assertThat(rows(table.newReadBuilder().withSnapshot(1))).containsExactly("1 alice", "2 bob");
            PredicateBuilder where = new PredicateBuilder(table.rowType());
            assertThat(rows(table.newReadBuilder().withSnapshot(1).withFilter(where.equal(0, 2L))))
                    .containsExactly("2 bob");

            TableTags.of(table).create("before-cleanup", 1L, null);
            TableRollback.Result rollback = TableRollback.of(table).toTag("before-cleanup");
            assertThat(rollback.currentSnapshotId()).isEqualTo(1L);
            assertThat(rows(table.newReadBuilder())).containsExactly("1 alice", "2 bob");

            SystemTable snapshots = SystemTables.of(table, "snapshots").orElseThrow();
            List<Long> snapshotIds = new ArrayList<>();
            snapshots.newRead().createReader().forEachRemaining(r -> snapshotIds.add(r.longAt(0)));
            assertThat(snapshotIds).containsExactly(1L);
        }
    }

    /** Every row of the read as "id name", sorted. */
    private static List<String> rows(ReadBuilder builder) throws Exception {
        List<String> rows = new ArrayList<>();
        builder.newRead().executeFilter().createReader(builder.newScan().plan().splits())
                .forEachRemaining((InternalRow r) -> rows.add(r.longAt(0) + " " + r.stringAt(1)));
        rows.sort(null);
        return rows;
    }
}
