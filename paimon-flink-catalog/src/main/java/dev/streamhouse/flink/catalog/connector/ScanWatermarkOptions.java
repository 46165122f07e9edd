package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.OptionChecks;
import dev.streamhouse.storage.options.Options;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.table.data.RowData;

import java.time.Duration;

/**
 * Table options (and SQL hints) that shape the watermarks of a streaming read, with Paimon's keys.
 * The watermark itself comes from the table's {@code WATERMARK FOR} clause.
 */
public final class ScanWatermarkOptions {
    private ScanWatermarkOptions() {}

    private static final String NO_ALIGNMENT = "watermark alignment is not implemented";

    public static final ConfigOption<Duration> SCAN_WATERMARK_IDLE_TIMEOUT =
            ConfigOption.key("scan.watermark.idle-timeout").durationType().noDefaultValue()
                    .withDescription("A source task that emits no record for this long is marked idle, so it does "
                            + "not hold the watermark back; unset: never idle.")
                    .checkedBy(OptionChecks.positiveDuration());

    public static final ConfigOption<String> SCAN_WATERMARK_EMIT_STRATEGY =
            ConfigOption.key("scan.watermark.emit.strategy").oneOf("on-periodic", "on-event").defaultValue("on-event")
                    .withDescription("Whether watermarks are emitted per record or periodically.")
                    .noEffectYet("watermarks are emitted periodically ('pipeline.auto-watermark-interval')");

    public static final ConfigOption<String> SCAN_WATERMARK_ALIGNMENT_GROUP =
            ConfigOption.key("scan.watermark.alignment.group").stringType().noDefaultValue()
                    .withDescription("Sources whose watermarks are aligned.").noEffectYet(NO_ALIGNMENT);

    public static final ConfigOption<Duration> SCAN_WATERMARK_ALIGNMENT_MAX_DRIFT =
            ConfigOption.key("scan.watermark.alignment.max-drift").durationType().noDefaultValue()
                    .withDescription("Largest watermark drift before an aligned source pauses.")
                    .noEffectYet(NO_ALIGNMENT);

    public static final ConfigOption<Duration> SCAN_WATERMARK_ALIGNMENT_UPDATE_INTERVAL =
            ConfigOption.key("scan.watermark.alignment.update-interval").durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription("How often aligned sources exchange their watermarks.").noEffectYet(NO_ALIGNMENT);

    /** {@code strategy} with the idleness {@code options} ask for. */
    public static WatermarkStrategy<RowData> apply(WatermarkStrategy<RowData> strategy, Options options) {
        Duration idle = options.get(SCAN_WATERMARK_IDLE_TIMEOUT);
        return idle == null ? strategy : strategy.withIdleness(idle);
    }
}
