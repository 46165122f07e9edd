package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.tag.TableTags;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code CALL sys.delete_tag(`table` => 'db.t', tag => 'v1,v2')}: deletes the comma-separated tags (a
 * tag that does not exist is skipped, as in Apache Paimon 1.3.1): the tag files, then the data,
 * changelog, manifest and index files that only these tags used (nothing a retained snapshot, another
 * tag or a long-lived changelog entry uses; see {@code TableTags#delete}). Returns {@code Success}.
 */
public final class DeleteTagProcedure implements Procedure {
    static final String NAME = "delete_tag";

    private final ProcedureCatalog catalog;

    public DeleteTagProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "tag", type = @DataTypeHint("STRING"))
    })
    public String[] call(ProcedureContext context, String table, String tag) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        TableTags tags = TableTags.of(catalog.table(args.table(table, catalog.defaultDatabase())));
        List<String> names = new ArrayList<>();
        for (String name : args.required("tag", tag).split(",")) {
            if (!name.isBlank()) {
                names.add(name.trim());
            }
        }
        if (names.isEmpty()) {
            throw args.error("tag", tag, "expected tag names separated by commas");
        }
        tags.delete(names);
        return new String[] {"Success"};
    }
}
