package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.expire.TableExpiration;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL sys.expire_changelogs(`table` => 'db.t', retain_max => .., retain_min => ..,
 * older_than => .., max_deletes => .., delete_all => ..)}, with Apache Paimon 1.3's arguments and
 * semantics: expires the long-lived changelogs of {@code changelog/} (docs/format.md §10.3, kept when the
 * table's {@code changelog.*} retention outlives its snapshots) and returns how many. As in Paimon,
 * only the limits given apply (retain_min defaults to 1, max_deletes to unlimited; counts include the
 * snapshots); {@code delete_all => true} expires every changelog and returns Paimon's success
 * message. Unlike Paimon, a live consumer still protects the changelogs it reads, and files a tag or
 * retained snapshot needs stay.
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
        TableExpiration expiration = TableExpiration.forTable(catalog.table(path));
        ExpireSnapshotsProcedure.applyRetention(args, expiration, retainMax, retainMin, maxDeletes, olderThan);
        if (Boolean.TRUE.equals(deleteAll)) {
            expiration.expireAllChangelogs();
            return new String[] {"Delete all separated changelogs success."};
        }
        return new String[] {Integer.toString(expiration.expireChangelogs())};
    }
}
