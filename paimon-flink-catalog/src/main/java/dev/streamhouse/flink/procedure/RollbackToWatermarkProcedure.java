package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL sys.rollback_to_watermark(`table` => 'db.t', watermark => 1700000000000)}: rolls back to
 * the latest snapshot whose watermark is at most the given one, as {@code rollback_to} does. Returns
 * {@code Success roll back to snapshot: <id> .} (Apache Paimon 1.3.1's text).
 */
public final class RollbackToWatermarkProcedure implements Procedure {
    static final String NAME = "rollback_to_watermark";

    private final ProcedureCatalog catalog;

    public RollbackToWatermarkProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "watermark", type = @DataTypeHint("BIGINT"))
    })
    public String[] call(ProcedureContext context, String table, Long watermark) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        TableRollback rollback = TableRollback.of(catalog.table(args.table(table, catalog.defaultDatabase())));
        TableRollback.Result result = rollback.toWatermark(args.required("watermark", watermark));
        return new String[] {"Success roll back to snapshot: " + result.currentSnapshotId() + " ."};
    }
}
