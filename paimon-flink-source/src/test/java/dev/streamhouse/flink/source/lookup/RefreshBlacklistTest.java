package dev.streamhouse.flink.source.lookup;

import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Option {@code lookup.refresh.time-periods-blacklist}. */
class RefreshBlacklistTest {

    private static long at(String time) {
        return LocalDateTime.parse(time.replace(' ', 'T')).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    }

    @Test
    void forbidsRefreshesInsideItsPeriodsOnly() {
        RefreshBlacklist b = RefreshBlacklist.parse("2026-12-24 08:00->2026-12-24 20:00, 2026-12-31 22:00->2027-01-01 02:00");
        assertThat(b.forbids(at("2026-12-24 07:59"))).isFalse();
        assertThat(b.forbids(at("2026-12-24 08:00"))).isTrue();
        assertThat(b.forbids(at("2026-12-24 19:59"))).isTrue();
        assertThat(b.forbids(at("2026-12-24 20:00"))).isFalse();
        assertThat(b.forbids(at("2027-01-01 01:00"))).isTrue();
        assertThat(b.allowedFrom(at("2026-12-24 12:00"))).isEqualTo(at("2026-12-24 20:00"));
        assertThat(b.allowedFrom(at("2026-12-25 12:00"))).isEqualTo(at("2026-12-25 12:00"));
    }

    @Test
    void overlappingPeriodsEndAtTheLastEnd() {
        RefreshBlacklist b = RefreshBlacklist.parse("2026-12-24 08:00->2026-12-24 10:00,2026-12-24 09:00->2026-12-24 11:00");
        assertThat(b.allowedFrom(at("2026-12-24 08:30"))).isEqualTo(at("2026-12-24 11:00"));
    }

    @Test
    void emptyForbidsNothing() {
        assertThat(RefreshBlacklist.parse(null).forbids(0)).isFalse();
        assertThat(RefreshBlacklist.parse(" ").forbids(System.currentTimeMillis())).isFalse();
    }

    @Test
    void malformedPeriodsAreRefusedNamingThem() {
        assertThatThrownBy(() -> RefreshBlacklist.parse("2026-12-24 08:00"))
                .hasMessageContaining("'2026-12-24 08:00' is not 'yyyy-MM-dd HH:mm->yyyy-MM-dd HH:mm'");
        assertThatThrownBy(() -> RefreshBlacklist.parse("2026-12-24 08:00->tomorrow"))
                .hasMessageContaining("'tomorrow' is not a time");
        assertThatThrownBy(() -> RefreshBlacklist.parse("2026-12-24 10:00->2026-12-24 08:00"))
                .hasMessageContaining("ends before it starts");
    }
}
