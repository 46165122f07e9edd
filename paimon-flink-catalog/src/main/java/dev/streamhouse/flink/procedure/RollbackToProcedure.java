package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL sys.rollback_to(`table` => 'db.t', tag => 'v1')} or {@code (..., snapshot_id => 3)}: rolls
 * the table back (see {@code TableRollback}: later snapshots, changelog entries and tags are deleted, then
 * the files only they used; a tag's expired snapshot is written back). {@code tag} wins when both are
 * given, as in Apache Paimon 1.3.1.
 * Returns (previous_snapshot_id, current_snapshot_id). Stop writers first: a writer whose base snapshot
 * was removed fails its next commit with a conflict.
 */
public final class RollbackToProcedure implements Procedure {
    static final String NAME = "rollback_to";

    private final ProcedureCatalog catalog;

    public RollbackToProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "tag", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "snapshot_id", type = @DataTypeHint("BIGINT"), isOptional = true)
    })
    @DataTypeHint("ROW<previous_snapshot_id BIGINT, current_snapshot_id BIGINT>")
    public Row[] call(ProcedureContext context, String table, String tag, Long snapshotId) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        TableRollback rollback = TableRollback.of(catalog.table(args.table(table, catalog.defaultDatabase())));
        TableRollback.Result result;
        if (!ProcedureArguments.isBlank(tag)) {
            result = rollback.toTag(tag.trim());
        } else if (snapshotId != null) {
            result = rollback.toSnapshot(snapshotId);
        } else {
            throw args.error("tag", null, "give a tag or a snapshot_id to roll back to");
        }
        return new Row[] {Row.of(result.previousSnapshotId(), result.currentSnapshotId())};
    }
}
