package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.expire.TableExpiration;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

import java.util.Map;

/**
 * {@code CALL sys.expire_snapshots(`table` => 'db.t', retain_max => 5, retain_min => 1,
 * older_than => '2024-01-01 12:00:00', max_deletes => 10, options => 'k=v')}: expires snapshots now
 * and returns how many expired, as Apache Paimon does. Unset arguments default to the table's
 * {@code snapshot.num-retained.max}, {@code snapshot.num-retained.min}, {@code snapshot.time-retained}
 * ({@code older_than} replaces it: snapshots committed before that local time may expire) and
 * {@code snapshot.expire.limit}; {@code options} are dynamic table options for this call. Files a
 * retained snapshot, tag or live consumer needs stay. Metadata work only, so it runs in the caller.
 */
public final class ExpireSnapshotsProcedure implements Procedure {
    static final String NAME = "expire_snapshots";

    private final ProcedureCatalog catalog;

    public ExpireSnapshotsProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "retain_max", type = @DataTypeHint("INTEGER"), isOptional = true),
        @ArgumentHint(name = "retain_min", type = @DataTypeHint("INTEGER"), isOptional = true),
        @ArgumentHint(name = "older_than", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "max_deletes", type = @DataTypeHint("INTEGER"), isOptional = true),
        @ArgumentHint(name = "options", type = @DataTypeHint("STRING"), isOptional = true)
    })
    public String[] call(ProcedureContext context, String table, Integer retainMax, Integer retainMin,
            String olderThan, Integer maxDeletes, String options) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        ObjectPath path = args.table(table, catalog.defaultDatabase());
        Map<String, String> dynamic = args.options(options);
        Table target = catalog.table(path);
        if (!dynamic.isEmpty()) {
            target = target.copy(dynamic);
        }
        TableExpiration expiration = TableExpiration.forTable(target);
        applyRetention(args, expiration, retainMax, retainMin, maxDeletes, olderThan);
        return new String[] {Integer.toString(expiration.expireSnapshots())};
    }

    /**
     * The retention arguments {@code expire_snapshots} and {@code expire_changelogs} share: each one given overrides
     * the table's value for this call.
     */
    static void applyRetention(ProcedureArguments args, TableExpiration expiration, Integer retainMax,
            Integer retainMin, Integer maxDeletes, String olderThan) {
        if (args.positive("retain_max", retainMax) != null) {
            expiration.retainMax(retainMax);
        }
        if (args.positive("retain_min", retainMin) != null) {
            expiration.retainMin(retainMin);
        }
        if (args.positive("max_deletes", maxDeletes) != null) {
            expiration.maxDeletes(maxDeletes);
        }
        Long olderThanMillis = args.epochMillis("older_than", olderThan);
        if (olderThanMillis != null) {
            expiration.olderThanMillis(olderThanMillis);
        }
    }
}
