package dev.streamhouse.storage.options;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/** Local date-times as users write them in options such as {@code scan.timestamp}. */
public final class LocalTimestamps {
    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd")
            .optionalStart().appendLiteral(' ').optionalEnd()
            .optionalStart().appendLiteral('T').optionalEnd()
            .appendPattern("HH:mm[:ss]")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    private LocalTimestamps() {}

    /**
     * Epoch millis of {@code text} ('yyyy-MM-dd HH:mm[:ss][.fraction]' or 'yyyy-MM-dd') in this JVM's
     * time zone.
     *
     * @throws IllegalArgumentException if the text is neither form
     */
    public static long toEpochMillis(String text) {
        String t = text.trim();
        LocalDateTime local;
        try {
            local = LocalDateTime.parse(t, DATE_TIME);
        } catch (DateTimeParseException notDateTime) {
            try {
                local = LocalDate.parse(t).atStartOfDay();
            } catch (DateTimeParseException notDate) {
                throw new IllegalArgumentException("'" + text + "' is not a date-time 'yyyy-MM-dd HH:mm:ss' or a "
                        + "date 'yyyy-MM-dd'");
            }
        }
        return local.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    }
}
