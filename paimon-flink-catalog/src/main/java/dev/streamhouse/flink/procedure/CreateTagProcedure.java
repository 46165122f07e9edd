package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.tag.TableTags;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL sys.create_tag(`table` => 'db.t', tag => 'v1', snapshot_id => 3, time_retained => '1 d')}
 * and {@code sys.replace_tag(...)} with the same arguments: tags snapshot {@code snapshot_id} (the
 * latest when absent), kept for {@code time_retained} (until deleted when absent, as in Apache Paimon
 * 1.3.1). Returns {@code Success}. Runs in the caller's JVM (metadata only).
 */
public final class CreateTagProcedure implements Procedure {
    static final String CREATE = "create_tag";
    static final String REPLACE = "replace_tag";

    private final ProcedureCatalog catalog;
    private final boolean replace;

    private CreateTagProcedure(ProcedureCatalog catalog, boolean replace) {
        this.catalog = catalog;
        this.replace = replace;
    }

    static CreateTagProcedure create(ProcedureCatalog catalog) {
        return new CreateTagProcedure(catalog, false);
    }

    static CreateTagProcedure replace(ProcedureCatalog catalog) {
        return new CreateTagProcedure(catalog, true);
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "tag", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "snapshot_id", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "time_retained", type = @DataTypeHint("STRING"), isOptional = true)
    })
    public String[] call(ProcedureContext context, String table, String tag, Long snapshotId, String timeRetained)
            throws Exception {
        ProcedureArguments args = new ProcedureArguments(replace ? REPLACE : CREATE);
        TableTags tags = TableTags.of(catalog.table(args.table(table, catalog.defaultDatabase())));
        args.required("tag", tag);
        java.time.Duration retained = args.duration("time_retained", timeRetained);
        if (replace) {
            tags.replace(tag, snapshotId, retained);
        } else {
            tags.create(tag, snapshotId, retained);
        }
        return new String[] {"Success"};
    }
}
