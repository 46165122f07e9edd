package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.partition.TablePartitionMarkDone;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

import java.util.List;
import java.util.Map;

/**
 * {@code CALL sys.mark_partition_done(`table` => 'db.t', partitions => 'dt=2024-01-01;dt=2024-01-02')}:
 * runs the table's {@code partition.mark-done-action} for each partition (full specs, separated by
 * {@code ;}). Only {@code success-file} (the default) is implemented, see {@link TablePartitionMarkDone};
 * other actions are refused naming them. Apache Paimon's arguments and output ({@code Success}).
 */
public final class MarkPartitionDoneProcedure implements Procedure {
    static final String NAME = "mark_partition_done";

    private final ProcedureCatalog catalog;

    public MarkPartitionDoneProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "partitions", type = @DataTypeHint("STRING"))
    })
    public String[] call(ProcedureContext context, String table, String partitions) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        List<Map<String, String>> specs = args.partitions(partitions);
        if (specs.isEmpty()) {
            throw args.error("partitions", partitions, "mark_partition_done needs partitions, e.g. 'dt=1;dt=2'");
        }
        TablePartitionMarkDone.of(catalog.table(args.table(table, catalog.defaultDatabase())))
                .markDone(specs, System.currentTimeMillis());
        return new String[] {"Success"};
    }
}
