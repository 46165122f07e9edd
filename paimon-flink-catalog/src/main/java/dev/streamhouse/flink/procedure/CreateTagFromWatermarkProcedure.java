package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.snapshot.Snapshot;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL sys.create_tag_from_watermark(`table` => 'db.t', tag => 'v1', watermark => 1700000000000,
 * time_retained => '1 d')}: tags the first snapshot whose watermark is at least the given one; a tag's snapshot counts too when it is earlier than every
 * retained match, as in Apache Paimon 1.3.1. Returns one row (tagName, snapshot, commit_time,
 * watermark). Fails naming the watermark if no snapshot matches.
 */
public final class CreateTagFromWatermarkProcedure implements Procedure {
    static final String NAME = "create_tag_from_watermark";

    private final ProcedureCatalog catalog;

    public CreateTagFromWatermarkProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "tag", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "watermark", type = @DataTypeHint("BIGINT")),
        @ArgumentHint(name = "time_retained", type = @DataTypeHint("STRING"), isOptional = true)
    })
    @DataTypeHint("ROW< tagName STRING, snapshot BIGINT, `commit_time` BIGINT, `watermark` STRING>")
    public Row[] call(ProcedureContext context, String table, String tag, Long watermark, String timeRetained)
            throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        TableTags tags = TableTags.of(catalog.table(args.table(table, catalog.defaultDatabase())));
        Snapshot s = tags.createFromWatermark(args.required("tag", tag), args.required("watermark", watermark),
                args.duration("time_retained", timeRetained));
        return new Row[] {Row.of(tag, s.id(), s.timeMillis(), String.valueOf(s.watermark()))};
    }
}
