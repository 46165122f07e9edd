package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.tag.TableTags;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.List;

/**
 * {@code CALL sys.expire_tags(`table` => 'db.t', older_than => '2024-01-01 12:00:00')}: deletes the tags
 * whose {@code time_retained} has passed and, with {@code older_than} (a local time of this JVM's time
 * zone), every tag created before it (a tag without a creation time by its file's time), as Apache
 * Paimon 1.3.1 does. One row per deleted tag ({@code expired_tags}), or one row
 * {@code No expired tags.}.
 */
public final class ExpireTagsProcedure implements Procedure {
    static final String NAME = "expire_tags";

    private final ProcedureCatalog catalog;

    public ExpireTagsProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "older_than", type = @DataTypeHint("STRING"), isOptional = true)
    })
    @DataTypeHint("ROW<expired_tags STRING>")
    public Row[] call(ProcedureContext context, String table, String olderThan) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        TableTags tags = TableTags.of(catalog.table(args.table(table, catalog.defaultDatabase())));
        List<String> expired = tags.expire(args.localDateTime("older_than", olderThan));
        if (expired.isEmpty()) {
            return new Row[] {Row.of("No expired tags.")};
        }
        return expired.stream().map(name -> Row.of(name)).toArray(Row[]::new);
    }
}
