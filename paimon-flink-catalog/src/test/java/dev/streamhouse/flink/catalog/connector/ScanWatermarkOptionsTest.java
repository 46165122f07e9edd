package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.storage.options.Options;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.clock.RelativeClock;
import org.apache.flink.util.clock.SystemClock;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScanWatermarkOptionsTest {
    private final WatermarkStrategy<RowData> base = WatermarkStrategy.forMonotonousTimestamps();

    @Test
    void withoutTheOptionTheStrategyIsUnchanged() {
        assertThat(ScanWatermarkOptions.apply(base, new Options())).isSameAs(base);
    }

    @Test
    void idleTimeoutMarksAQuietGeneratorIdle() throws Exception {
        WatermarkStrategy<RowData> idle = ScanWatermarkOptions.apply(base,
                new Options(Map.of("scan.watermark.idle-timeout", "1 ms")));
        assertThat(isIdleAfterQuietPeriod(idle)).isTrue();
        assertThat(isIdleAfterQuietPeriod(base)).as("without the option a quiet task stays active").isFalse();
    }

    /** Whether a generator of {@code strategy} that saw no event marks its output idle after 50 ms. */
    private static boolean isIdleAfterQuietPeriod(WatermarkStrategy<RowData> strategy) throws Exception {
        WatermarkGenerator<RowData> generator = strategy.createWatermarkGenerator(new Context());
        AtomicBoolean idle = new AtomicBoolean();
        WatermarkOutput output = new WatermarkOutput() {
            @Override
            public void emitWatermark(Watermark watermark) {}

            @Override
            public void markIdle() {
                idle.set(true);
            }

            @Override
            public void markActive() {
                idle.set(false);
            }
        };
        generator.onPeriodicEmit(output);
        Thread.sleep(50);
        generator.onPeriodicEmit(output);
        return idle.get();
    }

    private static final class Context implements WatermarkGeneratorSupplier.Context {
        @Override
        public MetricGroup getMetricGroup() {
            return new UnregisteredMetricsGroup();
        }

        @Override
        public RelativeClock getInputActivityClock() {
            return SystemClock.getInstance();
        }
    }

    @Test
    void nonPositiveOrMalformedTimeoutsNameTheOption() {
        assertThatThrownBy(() -> ScanWatermarkOptions.SCAN_WATERMARK_IDLE_TIMEOUT.parseAndCheck("0 s"))
                .hasMessageContaining("'scan.watermark.idle-timeout'").hasMessageContaining("positive");
        assertThatThrownBy(() -> ScanWatermarkOptions.SCAN_WATERMARK_IDLE_TIMEOUT.parseAndCheck("soon"))
                .hasMessageContaining("scan.watermark.idle-timeout");
    }
}
