package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.health.HealthFinding;
import dev.streamhouse.storage.maintenance.optimize.OptimizeLevel;
import dev.streamhouse.storage.maintenance.optimize.TableOptimizer;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code CALL sys.optimize('db.t', 'light' | 'moderate' | 'full')}: fixes what the table's health check
 * finds, to the given level ({@link OptimizeLevel}, default {@code moderate}; {@link TableOptimizer}
 * says what each level does). Compactions run as a Flink batch job on the CALL's environment, as
 * {@code sys.compact}'s do ({@link CompactRun}), restricted to the buckets the level chose; a compaction
 * whose commit conflicts with a concurrent writer is planned and run again, and abandoned with a
 * message after {@value TableOptimizer#COMPACTION_ATTEMPTS} attempts. Returns the findings before
 * ({@code stage = 'before'}), the actions ({@code 'action'}: {@code name} the action, {@code detail}
 * its outcome) and the findings after ({@code 'after'}); for findings {@code detail} is the
 * recommendation. Not one of Apache Paimon's procedures.
 */
public final class OptimizeProcedure implements Procedure {
    static final String NAME = "optimize";

    private final ProcedureCatalog catalog;

    public OptimizeProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "level", type = @DataTypeHint("STRING"), isOptional = true)
    }, output = @DataTypeHint("ROW<stage STRING, severity STRING, name STRING, affected STRING, measured STRING, "
            + "threshold STRING, detail STRING>"))
    public Row[] call(ProcedureContext context, String table, String level) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        OptimizeLevel chosen;
        try {
            chosen = ProcedureArguments.isBlank(level) ? OptimizeLevel.MODERATE : OptimizeLevel.parse(level);
        } catch (IllegalArgumentException e) {
            throw args.error("level", level, "expected 'light', 'moderate' or 'full'");
        }
        Table target = catalog.table(args.table(table, catalog.defaultDatabase()));
        int parallelism = Math.max(1, context.getExecutionEnvironment().getParallelism());
        TableOptimizer.Result result = TableOptimizer.of(target).run(chosen, (buckets, full) -> {
            CompactRun.Outcome o = CompactRun.run(context.getExecutionEnvironment(), target, buckets, full, parallelism);
            return o.snapshotId().map(id -> "compacted " + o.changedBuckets() + " of " + buckets.size()
                    + " buckets into snapshot " + id).orElse("nothing to compact in " + buckets.size() + " buckets");
        });
        List<Row> out = new ArrayList<>();
        result.before().forEach(f -> out.add(finding("before", f)));
        result.actions().forEach(a -> out.add(Row.of("action", null, a.name(), a.scope(), null, null, a.outcome())));
        result.after().forEach(f -> out.add(finding("after", f)));
        return out.toArray(Row[]::new);
    }

    private static Row finding(String stage, HealthFinding f) {
        return Row.of(stage, f.severity().name(), f.check(), f.scope(), f.measured(), f.threshold(),
                f.recommendation());
    }
}
