package dev.streamhouse.bench.rows;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code 'connector' = 'bench-rows'}: the write workloads' input ({@link BenchRows}), for a table of
 * exactly the benchmark's columns {@code (id BIGINT, i INT, b BIGINT, d DOUBLE, s STRING, ts TIMESTAMP(3))}.
 */
public final class BenchRowsFactory implements DynamicTableSourceFactory {
    public static final String IDENTIFIER = "bench-rows";
    static final ConfigOption<Long> ROWS =
            ConfigOptions.key("number-of-rows").longType().noDefaultValue().withDescription("Rows to generate.");
    static final ConfigOption<Long> KEYS =
            ConfigOptions.key("keys").longType().noDefaultValue().withDescription("ids are drawn from [1, keys].");
    static final ConfigOption<Long> RATE =
            ConfigOptions.key("rows-per-second")
                    .longType()
                    .defaultValue(0L)
                    .withDescription("Rows per second over all subtasks; 0 for as fast as possible.");
    private static final List<String> COLUMNS =
            List.of("id BIGINT", "i INT", "b BIGINT", "d DOUBLE", "s STRING", "ts TIMESTAMP(3)");

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        List<String> columns =
                rowType.getFields().stream()
                        .map(f -> f.getName() + " " + withoutNullability(f.getType()))
                        .collect(Collectors.toList());
        if (!columns.equals(COLUMNS)) {
            throw new IllegalArgumentException(
                    "Table " + context.getObjectIdentifier() + " with 'connector' = '" + IDENTIFIER
                            + "' must have the columns " + COLUMNS + ", not " + columns);
        }
        return new BenchRowsSource(
                rowType, helper.getOptions().get(ROWS), helper.getOptions().get(KEYS), helper.getOptions().get(RATE));
    }

    private static String withoutNullability(LogicalType type) {
        return type.copy(true).asSummaryString();
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(ROWS, KEYS);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(RATE);
    }
}
