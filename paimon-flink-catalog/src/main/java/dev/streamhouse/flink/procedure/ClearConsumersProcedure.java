package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.consumer.TableConsumers;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code CALL sys.clear_consumers(`table` => 'db.t', including_consumers => 'job-.*',
 * excluding_consumers => 'job-keep')}: deletes the named consumers whose whole id matches
 * {@code including_consumers} (default: all) and not {@code excluding_consumers} (default: none).
 * Apache Paimon's arguments and output ({@code Success}). Runs in the caller (metadata only).
 */
public final class ClearConsumersProcedure implements Procedure {
    static final String NAME = "clear_consumers";

    private final ProcedureCatalog catalog;

    public ClearConsumersProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "including_consumers", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "excluding_consumers", type = @DataTypeHint("STRING"), isOptional = true)
    })
    public String[] call(ProcedureContext context, String table, String includingConsumers,
            String excludingConsumers) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        Pattern including = ProcedureArguments.isBlank(includingConsumers)
                ? Pattern.compile(".*") : regex(args, "including_consumers", includingConsumers);
        Pattern excluding = ProcedureArguments.isBlank(excludingConsumers)
                ? null : regex(args, "excluding_consumers", excludingConsumers);
        TableConsumers.of(catalog.table(args.table(table, catalog.defaultDatabase()))).clear(including, excluding);
        return new String[] {"Success"};
    }

    private static Pattern regex(ProcedureArguments args, String argument, String value) {
        try {
            return Pattern.compile(value);
        } catch (PatternSyntaxException e) {
            throw args.error(argument, value, "not a Java regular expression: " + e.getDescription());
        }
    }
}
