package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.tag.TableTags;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL sys.trigger_tag_automatic_creation(`table` => 'db.t')}: creates the automatic tags that
 * are due now ({@code tag.automatic-creation} process-time or watermark) and deletes the tags whose
 * retention passed, as Apache Paimon 1.3.1 does after a commit; one row {@code Success}.
 */
public final class TriggerTagAutomaticCreationProcedure implements Procedure {
    static final String NAME = "trigger_tag_automatic_creation";

    private final ProcedureCatalog catalog;

    public TriggerTagAutomaticCreationProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {@ArgumentHint(name = "table", type = @DataTypeHint("STRING"))})
    @DataTypeHint("ROW<result STRING>")
    public Row[] call(ProcedureContext context, String table) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        TableTags.of(catalog.table(args.table(table, catalog.defaultDatabase()))).triggerAutomaticCreation();
        return new Row[] {Row.of("Success")};
    }
}
