package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.table.TableExpiration;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL sys.expire_changelogs(`table` => 'db.t', retain_max => .., retain_min => ..,
 * older_than => .., max_deletes => .., delete_all => ..)}, with Apache Paimon's arguments: expires the
 * long-lived changelogs of {@code changelog/} (FORMAT §10.3) and returns how many.
 *
 * <p>This store keeps a snapshot's changelog exactly as long as the snapshot (the
 * {@code changelog.*} retention options have no effect yet), so its tables have no long-lived
 * changelogs and the call returns 0 (with {@code delete_all}: Paimon's success message). A table
 * whose {@code changelog/} holds changelogs Apache Paimon kept is refused with a clear error rather
 * than half-expired: use Paimon's procedure for it.
 */
public final class ExpireChangelogsProcedure implements Procedure {
    static final String NAME = "expire_changelogs";

    private final ProcedureCatalog catalog;

    public ExpireChangelogsProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "retain_max", type = @DataTypeHint("INTEGER"), isOptional = true),
        @ArgumentHint(name = "retain_min", type = @DataTypeHint("INTEGER"), isOptional = true),
        @ArgumentHint(name = "older_than", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "max_deletes", type = @DataTypeHint("INTEGER"), isOptional = true),
        @ArgumentHint(name = "delete_all", type = @DataTypeHint("BOOLEAN"), isOptional = true)
    })
    public String[] call(ProcedureContext context, String table, Integer retainMax, Integer retainMin,
            String olderThan, Integer maxDeletes, Boolean deleteAll) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        ObjectPath path = args.table(table, catalog.defaultDatabase());
        // Checked as Paimon checks them, though no changelog is kept apart from its snapshot here.
        args.positive("retain_max", retainMax);
        args.positive("retain_min", retainMin);
        args.positive("max_deletes", maxDeletes);
        args.epochMillis("older_than", olderThan);
        int changelogs = TableExpiration.forTable(catalog.table(path)).longLivedChangelogCount();
        if (changelogs > 0) {
            throw new UnsupportedOperationException("CALL sys." + NAME + ": table " + path.getFullName() + " has "
                    + changelogs + " long-lived changelogs in its changelog/ directory (kept by Apache Paimon's "
                    + "'changelog.*' retention); expiring them is not supported yet, use Apache Paimon's "
                    + "expire_changelogs for this table. This store never keeps changelogs apart from snapshots.");
        }
        if (Boolean.TRUE.equals(deleteAll)) {
            return new String[] {"Delete all separated changelogs success."};
        }
        return new String[] {"0"};
    }
}
