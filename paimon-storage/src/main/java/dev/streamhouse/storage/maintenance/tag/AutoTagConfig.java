package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.TagOptions;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Locale;

/**
 * The settings of automatic tags, read once from the table options ({@link TagOptions}).
 *
 * @param mode {@code none}, {@code process-time}, {@code watermark} or {@code batch}
 * @param period the period and tag names (null with mode none or batch)
 * @param delay how long after a period ends its tag is created
 * @param numRetainedMax most automatic tags kept, or null for no limit
 * @param defaultTimeRetained retention of each new automatic tag, or null to keep it until deleted
 * @param automaticCompletion whether periods without a tag get one later (one per snapshot)
 * @param createSuccessFile whether {@code tag-success-file/<tag>_SUCCESS} is written for each new tag
 * @param batchName the name of the tag of a batch commit, or null for {@code batch-write-<yyyy-MM-dd>}
 * @param processTimeZone zone of snapshot commit times ({@code sink.process-time-zone}, default the JVM's)
 * @param watermarkTimeZone zone of snapshot watermarks ({@code sink.watermark-time-zone})
 * @param watermarkIdleTimeout with watermark tags, how old the latest snapshot's watermark may grow before
 *     a commit without changes still makes a snapshot ({@code snapshot.watermark-idle-timeout}), or null
 *     for never
 */
public record AutoTagConfig(String mode, TagPeriod period, Duration delay, Integer numRetainedMax,
        Duration defaultTimeRetained, boolean automaticCompletion, boolean createSuccessFile, String batchName,
        ZoneId processTimeZone, ZoneId watermarkTimeZone, Duration watermarkIdleTimeout) {

    /**
     * @throws IllegalArgumentException if a value is invalid (a bad period, a delay not shorter than the
     *     period, an unknown time zone)
     */
    public static AutoTagConfig from(Options o) {
        String mode = o.get(TagOptions.TAG_AUTOMATIC_CREATION).trim().toLowerCase(Locale.ROOT);
        boolean periodic = mode.equals("process-time") || mode.equals("watermark");
        TagPeriod period = periodic ? TagPeriod.of(o.get(TagOptions.TAG_CREATION_PERIOD),
                o.get(TagOptions.TAG_PERIOD_FORMATTER), o.get(TagOptions.TAG_CREATION_PERIOD_DURATION)) : null;
        Duration delay = o.get(TagOptions.TAG_CREATION_DELAY);
        if (period != null) {
            period.checkDelay(delay);
        }
        String processZone = o.get(TagOptions.SINK_PROCESS_TIME_ZONE);
        return new AutoTagConfig(mode, period, delay, o.get(TagOptions.TAG_NUM_RETAINED_MAX),
                o.get(TagOptions.TAG_DEFAULT_TIME_RETAINED), o.get(TagOptions.TAG_AUTOMATIC_COMPLETION),
                o.get(TagOptions.TAG_CREATE_SUCCESS_FILE), o.get(TagOptions.TAG_BATCH_CUSTOMIZED_NAME),
                processZone == null ? ZoneId.systemDefault() : zone(processZone, TagOptions.SINK_PROCESS_TIME_ZONE.key()),
                zone(o.get(TagOptions.SINK_WATERMARK_TIME_ZONE), TagOptions.SINK_WATERMARK_TIME_ZONE.key()),
                o.get(TagOptions.SNAPSHOT_WATERMARK_IDLE_TIMEOUT));
    }

    private static ZoneId zone(String id, String key) {
        try {
            return ZoneId.of(id);
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException("Option '" + key + "' = '" + id + "' is not a time zone id", e);
        }
    }

    /** Whether tags are created by period (process-time or watermark). */
    public boolean periodic() {
        return period != null;
    }

    public boolean batch() {
        return mode.equals("batch");
    }

    public boolean watermark() {
        return mode.equals("watermark");
    }
}
