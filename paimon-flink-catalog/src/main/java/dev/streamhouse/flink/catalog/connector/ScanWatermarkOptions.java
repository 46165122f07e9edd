package dev.streamhouse.flink.catalog.connector;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;

import java.time.Duration;

/**
 * Table options (and SQL hints) that shape the watermarks of a streaming read, with Paimon's keys.
 * The watermark itself comes from the table's {@code WATERMARK FOR} clause.
 */
public final class ScanWatermarkOptions {
    private ScanWatermarkOptions() {}

    public static final ConfigOption<Duration> SCAN_WATERMARK_IDLE_TIMEOUT =
            ConfigOptions.key("scan.watermark.idle-timeout")
                    .durationType()
                    .noDefaultValue()
                    .withDescription("A source split (one bucket of a partition) that emits no record for this "
                            + "long is marked idle, so it does not hold the watermark back; unset: never idle.");

    /**
     * {@code strategy} with the idleness {@code options} ask for.
     *
     * @throws IllegalArgumentException if the idle timeout is not positive, naming the option
     */
    public static WatermarkStrategy<RowData> apply(WatermarkStrategy<RowData> strategy, ReadableConfig options) {
        Duration idle = options.get(SCAN_WATERMARK_IDLE_TIMEOUT);
        if (idle == null) {
            return strategy;
        }
        if (idle.isZero() || idle.isNegative()) {
            throw new IllegalArgumentException("Cannot use '" + SCAN_WATERMARK_IDLE_TIMEOUT.key() + "' = " + idle
                    + ": it must be positive; fix the table option or the SQL hint");
        }
        return strategy.withIdleness(idle);
    }
}
