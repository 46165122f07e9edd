package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.consumer.TableConsumers;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL sys.reset_consumer(`table` => 'db.t', consumer_id => 'c', next_snapshot_id => 5)}: sets
 * the saved progress of a named consumer (a streaming reader with {@code consumer-id}) to snapshot 5,
 * which must exist; without {@code next_snapshot_id} the consumer is deleted. Apache Paimon's arguments
 * and output ({@code Success}). Runs in the caller (metadata only).
 */
public final class ResetConsumerProcedure implements Procedure {
    static final String NAME = "reset_consumer";

    private final ProcedureCatalog catalog;

    public ResetConsumerProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "consumer_id", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "next_snapshot_id", type = @DataTypeHint("BIGINT"), isOptional = true)
    })
    public String[] call(ProcedureContext context, String table, String consumerId, Long nextSnapshotId)
            throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        TableConsumers consumers = TableConsumers.of(catalog.table(args.table(table, catalog.defaultDatabase())));
        if (ProcedureArguments.isBlank(consumerId)) {
            throw args.error("consumer_id", consumerId, "a consumer id is required");
        }
        if (nextSnapshotId == null) {
            consumers.delete(consumerId);
        } else {
            consumers.reset(consumerId, nextSnapshotId);
        }
        return new String[] {"Success"};
    }
}
