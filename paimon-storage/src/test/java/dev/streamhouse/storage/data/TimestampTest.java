package dev.streamhouse.storage.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Timestamps as (epoch millis, nanos of millisecond), before and after 1970. */
class TimestampTest {

    private static final List<LocalDateTime> SAMPLES = List.of(
            LocalDateTime.of(1970, 1, 1, 0, 0),
            LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_901_234),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 0),
            LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1),
            LocalDateTime.of(1, 1, 1, 0, 0),
            LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999));

    @Test
    void localDateTimeRoundTrips() {
        for (LocalDateTime dt : SAMPLES) {
            Timestamp ts = Timestamp.fromLocalDateTime(dt);
            assertThat(ts.toLocalDateTime()).as(dt.toString()).isEqualTo(dt);
            assertThat(ts.millisecond()).as(dt.toString())
                    .isEqualTo(dt.toInstant(ZoneOffset.UTC).toEpochMilli());
        }
    }

    @Test
    void preEpochValuesSplitIntoFlooredMillisAndPositiveNanos() {
        Timestamp ts = Timestamp.fromLocalDateTime(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999));

        assertThat(ts.millisecond()).isEqualTo(-1);
        assertThat(ts.nanoOfMillisecond()).isEqualTo(999_999);
    }

    @Test
    void instantRoundTrips() {
        for (LocalDateTime dt : SAMPLES) {
            Instant instant = dt.toInstant(ZoneOffset.UTC);
            Timestamp ts = Timestamp.fromInstant(instant);
            assertThat(ts.toInstant()).as(dt.toString()).isEqualTo(instant);
            assertThat(ts).isEqualTo(Timestamp.fromLocalDateTime(dt));
        }
        Instant justBefore = Instant.ofEpochSecond(-1, 1);
        assertThat(Timestamp.fromInstant(justBefore).millisecond()).isEqualTo(-1000);
        assertThat(Timestamp.fromInstant(justBefore).nanoOfMillisecond()).isEqualTo(1);
        assertThat(Timestamp.fromInstant(justBefore).toInstant()).isEqualTo(justBefore);
    }

    @Test
    void microsRoundTrip() {
        long[] micros = {0, 1, -1, 999, -999, 1_000, -1_001, 1_704_164_645_678_901L, -62_135_596_800_000_000L};
        for (long m : micros) {
            Timestamp ts = Timestamp.fromMicros(m);
            assertThat(ts.toMicros()).as("%d", m).isEqualTo(m);
            assertThat(ts.nanoOfMillisecond()).isBetween(0, 999_999);
        }
        assertThat(Timestamp.fromMicros(-1).millisecond()).isEqualTo(-1);
        assertThat(Timestamp.fromMicros(-1).nanoOfMillisecond()).isEqualTo(999_000);
    }

    @Test
    void microsOfALocalDateTimeMatchTheWallClockReadAsUtc() {
        LocalDateTime dt = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_901_000);
        Timestamp ts = Timestamp.fromLocalDateTime(dt);

        assertThat(ts.millisecond()).isEqualTo(1_704_164_645_678L);
        assertThat(ts.toMicros()).isEqualTo(1_704_164_645_678_901L);
    }

    @Test
    void truncateDropsDigitsBeyondThePrecision() {
        Timestamp ts = Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_901_234));

        assertThat(ts.truncate(9)).isEqualTo(ts);
        assertThat(ts.truncate(6).toLocalDateTime()).isEqualTo(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_901_000));
        assertThat(ts.truncate(3).toLocalDateTime()).isEqualTo(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_000_000));
        assertThat(ts.truncate(3).nanoOfMillisecond()).isZero();
        assertThat(ts.truncate(1).toLocalDateTime()).isEqualTo(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 600_000_000));
        assertThat(ts.truncate(0).toLocalDateTime()).isEqualTo(LocalDateTime.of(2024, 1, 2, 3, 4, 5));
    }

    @Test
    void truncateOfPreEpochValuesMovesTowardsThePast() {
        Timestamp ts = Timestamp.fromLocalDateTime(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999));

        assertThat(ts.truncate(6).toLocalDateTime()).isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
        assertThat(ts.truncate(3)).isEqualTo(Timestamp.fromEpochMillis(-1));
        assertThat(ts.truncate(0)).isEqualTo(Timestamp.fromEpochMillis(-1000));
    }

    @Test
    void orderIsByMillisThenNanos() {
        assertThat(Timestamp.fromEpochMillis(-1, 999_999)).isLessThan(Timestamp.fromEpochMillis(0));
        assertThat(Timestamp.fromEpochMillis(5, 1)).isGreaterThan(Timestamp.fromEpochMillis(5, 0));
        assertThat(Timestamp.fromEpochMillis(5, 7)).isEqualTo(Timestamp.fromEpochMillis(5, 7));
        assertThat(Timestamp.fromEpochMillis(5, 7).hashCode()).isEqualTo(Timestamp.fromEpochMillis(5, 7).hashCode());
    }

    @Test
    void nanosOfMillisecondMustBeInRange() {
        assertThatThrownBy(() -> Timestamp.fromEpochMillis(0, 1_000_000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Timestamp.fromEpochMillis(0, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
