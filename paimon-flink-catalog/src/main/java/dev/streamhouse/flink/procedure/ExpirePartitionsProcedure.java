package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.maintenance.partition.TablePartitionExpiration;
import dev.streamhouse.storage.options.PartitionLifecycleOptions;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code CALL sys.expire_partitions(`table` => 'db.t', expiration_time => '1 d', timestamp_formatter =>
 * 'yyyyMMdd')}: drops the partitions older than the expiration time now (see
 * {@link TablePartitionExpiration}), one row per dropped partition ({@code dt=20240101}), or the single
 * row {@code No expired partitions.}. Apache Paimon's arguments: each given argument overrides the table
 * option it stands for ({@code partition.expiration-time}, {@code partition.timestamp-formatter},
 * {@code partition.timestamp-pattern}, {@code partition.expiration-strategy},
 * {@code partition.expiration-max-num}), {@code options} are more dynamic options ({@code k=v,...}).
 * Runs in the caller: it only writes metadata (one OVERWRITE snapshot).
 */
public final class ExpirePartitionsProcedure implements Procedure {
    static final String NAME = "expire_partitions";

    private final ProcedureCatalog catalog;

    public ExpirePartitionsProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "expiration_time", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "timestamp_formatter", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "timestamp_pattern", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "expire_strategy", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "max_expires", type = @DataTypeHint("INTEGER"), isOptional = true),
        @ArgumentHint(name = "options", type = @DataTypeHint("STRING"), isOptional = true)
    }, output = @DataTypeHint("ROW< expired_partitions STRING>"))
    public Row[] call(ProcedureContext context, String table, String expirationTime, String timestampFormatter,
            String timestampPattern, String expireStrategy, Integer maxExpires, String options) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        Table data = catalog.table(args.table(table, catalog.defaultDatabase()));
        Map<String, String> dynamic = args.options(options);
        putIfGiven(dynamic, PartitionLifecycleOptions.PARTITION_EXPIRATION_STRATEGY.key(), expireStrategy);
        putIfGiven(dynamic, PartitionLifecycleOptions.PARTITION_TIMESTAMP_FORMATTER.key(), timestampFormatter);
        putIfGiven(dynamic, PartitionLifecycleOptions.PARTITION_TIMESTAMP_PATTERN.key(), timestampPattern);
        putIfGiven(dynamic, PartitionLifecycleOptions.PARTITION_EXPIRATION_TIME.key(), expirationTime);
        if (maxExpires != null) {
            dynamic.put(PartitionLifecycleOptions.PARTITION_EXPIRATION_MAX_NUM.key(), String.valueOf(maxExpires));
        }
        if (!dynamic.isEmpty()) {
            data = data.copy(dynamic);
        }
        List<LinkedHashMap<String, String>> expired = TablePartitionExpiration.of(data).expire(LocalDateTime.now());
        if (expired.isEmpty()) {
            return new Row[] {Row.of("No expired partitions.")};
        }
        return expired.stream().map(spec -> {
            String text = spec.toString();
            return Row.of(text.substring(1, text.length() - 1));
        }).toArray(Row[]::new);
    }

    private static void putIfGiven(Map<String, String> options, String key, String value) {
        if (!ProcedureArguments.isBlank(value)) {
            options.put(key, value);
        }
    }
}
