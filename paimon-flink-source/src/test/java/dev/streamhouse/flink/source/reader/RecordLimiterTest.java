package dev.streamhouse.flink.source.reader;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordLimiterTest {

    @Test
    void aLimitLetsExactlyThatManyRecordsThrough() {
        RecordLimiter limiter = RecordLimiter.of(2);
        assertThat(limiter.reached()).isFalse();
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.reached()).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();
        assertThat(RecordLimiter.of(0).reached()).isTrue();
        assertThat(RecordLimiter.of(0).tryAcquire()).isFalse();
    }

    @Test
    void unlimitedNeverStopsARead() {
        RecordLimiter limiter = RecordLimiter.unlimited();
        for (int i = 0; i < 10_000; i++) {
            assertThat(limiter.tryAcquire()).isTrue();
        }
        assertThat(limiter.reached()).isFalse();
    }

    @Test
    void aNegativeLimitIsRefused() {
        assertThatThrownBy(() -> RecordLimiter.of(-1)).hasMessageContaining("negative");
    }
}
