package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.health.HealthFinding;
import dev.streamhouse.storage.maintenance.health.TableHealth;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL sys.table_health('db.t')}: the health findings of a table ({@link TableHealth}), one row
 * per finding with the columns of {@code t$table_health}, most severe first; no rows for a healthy
 * table. Metadata only, so it runs in the caller. Not one of Apache Paimon's procedures.
 */
public final class TableHealthProcedure implements Procedure {
    static final String NAME = "table_health";

    /** The output columns, those of {@code t$table_health}. */
    static final String FINDING_COLUMNS = "severity STRING, check_name STRING, affected STRING, measured STRING, "
            + "threshold STRING, description STRING, recommendation STRING";

    private final ProcedureCatalog catalog;

    public TableHealthProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {@ArgumentHint(name = "table", type = @DataTypeHint("STRING"))},
            output = @DataTypeHint("ROW<" + FINDING_COLUMNS + ">"))
    public Row[] call(ProcedureContext context, String table) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        return TableHealth.of(catalog.table(args.table(table, catalog.defaultDatabase()))).check().stream()
                .map(TableHealthProcedure::row).toArray(Row[]::new);
    }

    static Row row(HealthFinding f) {
        return Row.of(f.severity().name(), f.check(), f.scope(), f.measured(), f.threshold(), f.description(),
                f.recommendation());
    }
}
