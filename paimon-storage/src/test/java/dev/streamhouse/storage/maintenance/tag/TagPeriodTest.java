package dev.streamhouse.storage.maintenance.tag;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Period boundaries and tag names of automatic tags (Paimon 1.3.1's formats). */
class TagPeriodTest {
    private static final LocalDateTime T = LocalDateTime.of(2024, 5, 2, 13, 47, 12);

    @Test
    void dailyTagsNameThePreviousDay() {
        TagPeriod daily = TagPeriod.of("daily", "with_dashes", null);
        assertThat(daily.previousPeriodStart(T)).isEqualTo(LocalDateTime.of(2024, 5, 1, 0, 0));
        assertThat(daily.previousPeriodStart(LocalDateTime.of(2024, 5, 2, 0, 0))).isEqualTo(LocalDateTime.of(2024, 5, 1, 0, 0));
        assertThat(daily.previousPeriodStart(LocalDateTime.of(2024, 5, 1, 23, 59, 59, 999_000_000)))
                .isEqualTo(LocalDateTime.of(2024, 4, 30, 0, 0));
        assertThat(daily.tagName(LocalDateTime.of(2024, 5, 1, 0, 0))).isEqualTo("2024-05-01");
        assertThat(TagPeriod.of("daily", "without_dashes", null).tagName(LocalDateTime.of(2024, 5, 1, 0, 0)))
                .isEqualTo("20240501");
        assertThat(TagPeriod.of("daily", "without_dashes_and_spaces", null).tagName(LocalDateTime.of(2024, 5, 1, 0, 0)))
                .isEqualTo("20240501");
        assertThat(daily.next(LocalDateTime.of(2024, 5, 1, 0, 0))).isEqualTo(LocalDateTime.of(2024, 5, 2, 0, 0));
        // Paimon's daily parser takes the part before the first space.
        assertThat(daily.isAutoTag("2024-05-01")).isTrue();
        assertThat(daily.isAutoTag("2024-05-01 13")).isTrue();
        assertThat(daily.isAutoTag("20240501")).isFalse();
        assertThat(daily.isAutoTag("2024-02-30")).isFalse();
        assertThat(daily.isAutoTag("my-tag")).isFalse();
        assertThat(daily.periodStart("2024-05-01")).isEqualTo(LocalDateTime.of(2024, 5, 1, 0, 0));
    }

    @Test
    void hourlyAndTwoHourNames() {
        TagPeriod hourly = TagPeriod.of("hourly", "with_dashes", null);
        assertThat(hourly.previousPeriodStart(T)).isEqualTo(LocalDateTime.of(2024, 5, 2, 12, 0));
        assertThat(hourly.tagName(LocalDateTime.of(2024, 5, 2, 12, 0))).isEqualTo("2024-05-02 12");
        assertThat(TagPeriod.of("hourly", "without_dashes", null).tagName(LocalDateTime.of(2024, 5, 2, 12, 0)))
                .isEqualTo("20240502 12");
        TagPeriod compact = TagPeriod.of("hourly", "without_dashes_and_spaces", null);
        assertThat(compact.tagName(LocalDateTime.of(2024, 5, 2, 12, 0))).isEqualTo("2024050212");
        assertThat(compact.periodStart("2024050212")).isEqualTo(LocalDateTime.of(2024, 5, 2, 12, 0));
        assertThat(hourly.isAutoTag("2024-05-02 12")).isTrue();
        assertThat(hourly.isAutoTag("2024-05-02")).isFalse();
        assertThat(hourly.isAutoTag("2024-05-02 24")).isFalse();

        TagPeriod two = TagPeriod.of("two-hours", "without_dashes", null);
        assertThat(two.previousPeriodStart(T)).isEqualTo(LocalDateTime.of(2024, 5, 2, 10, 0));
        assertThat(two.previousPeriodStart(LocalDateTime.of(2024, 5, 2, 12, 0))).isEqualTo(LocalDateTime.of(2024, 5, 2, 10, 0));
        assertThat(two.tagName(LocalDateTime.of(2024, 5, 2, 10, 0))).isEqualTo("2024-05-02 10");
    }

    @Test
    void aPeriodDurationNamesMinutes() {
        TagPeriod p = TagPeriod.of("daily", "with_dashes", Duration.ofMinutes(15));
        assertThat(p.previousPeriodStart(T)).isEqualTo(LocalDateTime.of(2024, 5, 2, 13, 30));
        assertThat(p.tagName(LocalDateTime.of(2024, 5, 2, 13, 30))).isEqualTo("202405021330");
        assertThat(p.isAutoTag("202405021330")).isTrue();
        assertThat(p.isAutoTag("2024-05-02")).isFalse();
    }

    @Test
    void theDelayMustBeShorterThanThePeriod() {
        TagPeriod hourly = TagPeriod.of("hourly", "with_dashes", null);
        hourly.checkDelay(Duration.ofMinutes(59));
        assertThatThrownBy(() -> hourly.checkDelay(Duration.ofHours(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tag.creation-delay");
        assertThatThrownBy(() -> TagPeriod.of("weekly", "with_dashes", null)).hasMessageContaining("tag.creation-period");
    }
}
