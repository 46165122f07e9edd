package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL sys.rollback_to_timestamp(`table` => 'db.t', `timestamp` => 1700000000000)}: rolls back to
 * the latest snapshot committed at or before the time (epoch millis), as {@code rollback_to} does.
 * Returns (previous_snapshot_id, current_snapshot_id).
 */
public final class RollbackToTimestampProcedure implements Procedure {
    static final String NAME = "rollback_to_timestamp";

    private final ProcedureCatalog catalog;

    public RollbackToTimestampProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "timestamp", type = @DataTypeHint("BIGINT"))
    })
    @DataTypeHint("ROW<previous_snapshot_id BIGINT, current_snapshot_id BIGINT>")
    public Row[] call(ProcedureContext context, String table, Long timestamp) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        TableRollback rollback = TableRollback.of(catalog.table(args.table(table, catalog.defaultDatabase())));
        TableRollback.Result result = rollback.toTimestamp(args.required("timestamp", timestamp));
        return new Row[] {Row.of(result.previousSnapshotId(), result.currentSnapshotId())};
    }
}
