package dev.streamhouse.storage.maintenance.tag;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.streamhouse.storage.schema.MetadataJson;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotSerializer;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;

/**
 * Converts a {@link Tag} to and from the JSON of {@code tag/tag-<name>} (docs/format.md §11.1): the snapshot's
 * members ({@link SnapshotSerializer}), then, only when the tag has a retention time,
 * {@code tagCreateTime} as Jackson writes a {@code LocalDateTime} ({@code [year, month, day, hour,
 * minute, second, nano]}, trailing zero second and nano left out) and {@code tagTimeRetained} in
 * seconds with nine fraction digits ({@code 3600.000000000}).
 *
 * <p>Reading also accepts an ISO date-time string for {@code tagCreateTime} and an ISO duration
 * ({@code PT1H}) for {@code tagTimeRetained}. Malformed input fails with an
 * {@link IllegalArgumentException} saying what is wrong (callers add the file name); the snapshot
 * members are checked as {@link SnapshotSerializer#fromJson} checks them.
 */
public final class TagSerializer {
    static final String CREATE_TIME = "tagCreateTime";
    static final String TIME_RETAINED = "tagTimeRetained";

    private TagSerializer() {}

    public static String toJson(Tag tag) {
        if (tag.timeRetained() == null) {
            return SnapshotSerializer.toJson(tag.snapshot());
        }
        LocalDateTime created = tag.createTime() == null ? LocalDateTime.now() : tag.createTime();
        return SnapshotSerializer.toJson(tag.snapshot(), g -> {
            g.writeArrayFieldStart(CREATE_TIME);
            g.writeNumber(created.getYear());
            g.writeNumber(created.getMonthValue());
            g.writeNumber(created.getDayOfMonth());
            g.writeNumber(created.getHour());
            g.writeNumber(created.getMinute());
            if (created.getSecond() > 0 || created.getNano() > 0) {
                g.writeNumber(created.getSecond());
                if (created.getNano() > 0) {
                    g.writeNumber(created.getNano());
                }
            }
            g.writeEndArray();
            g.writeFieldName(TIME_RETAINED);
            g.writeNumber(seconds(tag.timeRetained()));
        });
    }

    /** {@code 3600.000000000}: seconds with nine fraction digits, as Jackson writes a Duration. */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9)).setScale(9).toPlainString();
    }

    /**
     * Parses tag JSON.
     *
     * @throws IllegalArgumentException if the text is not a valid tag document
     */
    public static Tag fromJson(String json) {
        JsonNode node = MetadataJson.parseObject(json);
        ObjectNode object = (ObjectNode) node;
        LocalDateTime createTime = createTime(object.remove(CREATE_TIME));
        Duration timeRetained = timeRetained(object.remove(TIME_RETAINED));
        Snapshot snapshot = SnapshotSerializer.fromJson(object.toString());
        return new Tag(snapshot, createTime, timeRetained);
    }

    private static LocalDateTime createTime(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isTextual()) {
            try {
                return LocalDateTime.parse(node.asText());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("field '" + CREATE_TIME + "' = '" + node.asText()
                        + "' is not an ISO date-time", e);
            }
        }
        if (!node.isArray() || node.size() < 5 || node.size() > 7) {
            throw new IllegalArgumentException("field '" + CREATE_TIME + "' must be [year, month, day, hour, minute"
                    + "(, second(, nano))] but is " + node);
        }
        int[] parts = new int[7];
        for (int i = 0; i < node.size(); i++) {
            if (!node.get(i).isIntegralNumber()) {
                throw new IllegalArgumentException("field '" + CREATE_TIME + "' has a non-integer member: " + node);
            }
            parts[i] = node.get(i).intValue();
        }
        try {
            return LocalDateTime.of(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6]);
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException("field '" + CREATE_TIME + "' = " + node + " is not a date-time", e);
        }
    }

    private static Duration timeRetained(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            if (node.isNumber()) {
                BigDecimal seconds = node.decimalValue();
                long whole = seconds.longValue();
                int nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).intValue();
                return Duration.ofSeconds(whole, nanos);
            }
            if (node.isTextual()) {
                return Duration.parse(node.asText());
            }
        } catch (ArithmeticException | DateTimeParseException e) {
            throw new IllegalArgumentException("field '" + TIME_RETAINED + "' = " + node + " is not a duration", e);
        }
        throw new IllegalArgumentException("field '" + TIME_RETAINED + "' must be a number of seconds but is " + node);
    }
}
