package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.tag.TableTags;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL sys.rename_tag(`table` => 'db.t', tagName => 'v1', targetTagName => 'v2')} (Apache Paimon
 * 1.3.1's argument names). Fails if {@code tagName} does not exist or {@code targetTagName} does.
 */
public final class RenameTagProcedure implements Procedure {
    static final String NAME = "rename_tag";

    private final ProcedureCatalog catalog;

    public RenameTagProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "tagName", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "targetTagName", type = @DataTypeHint("STRING"))
    })
    public String[] call(ProcedureContext context, String table, String tagName, String targetTagName)
            throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        TableTags tags = TableTags.of(catalog.table(args.table(table, catalog.defaultDatabase())));
        tags.rename(args.required("tagName", tagName), args.required("targetTagName", targetTagName));
        return new String[] {"Rename [" + tagName + "] to [" + targetTagName + "] successfully."};
    }
}
