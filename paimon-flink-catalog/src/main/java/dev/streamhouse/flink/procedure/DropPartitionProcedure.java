package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code CALL sys.drop_partition('db.t', 'dt=2024-01-01,hh=01', 'dt=2024-01-02')}: Apache Paimon's
 * deprecated procedure (positional arguments only: the table, then one partition spec per argument),
 * which does what {@code ALTER TABLE ... DROP PARTITION} does: one OVERWRITE snapshot deleting every
 * file of the matching partitions (a spec may name only leading keys). Output {@code Success}.
 */
@Deprecated
public final class DropPartitionProcedure implements Procedure {
    static final String NAME = "drop_partition";

    private final ProcedureCatalog catalog;

    public DropPartitionProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    public String[] call(ProcedureContext context, String table, String... partitions) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        if (partitions == null || partitions.length == 0) {
            throw args.error("partitions", null, "drop_partition needs at least one partition spec, e.g. 'dt=1'");
        }
        Table data = catalog.table(args.table(table, catalog.defaultDatabase()));
        List<Map<String, String>> specs = new ArrayList<>();
        for (String p : partitions) {
            if (ProcedureArguments.isBlank(p)) {
                throw args.error("partitions", p, "a partition spec is empty");
            }
            specs.addAll(args.partitions(p));
        }
        try (BatchTableCommit commit = data.newBatchCommit()) {
            commit.dropPartitions(specs);
        }
        return new String[] {"Success"};
    }
}
