package dev.streamhouse.storage.options;

import dev.streamhouse.storage.options.ConfigOption.ValueCheck;

import java.time.Duration;

/** Range checks for option declarations ({@link ConfigOption#checkedBy}). */
public final class OptionChecks {
    private OptionChecks() {}

    public static ValueCheck<Integer> atLeast(int min) {
        return v -> v >= min ? null : "it must be at least " + min;
    }

    public static ValueCheck<Long> atLeastLong(long min) {
        return v -> v >= min ? null : "it must be at least " + min;
    }

    public static ValueCheck<Integer> between(int min, int max) {
        return v -> v >= min && v <= max ? null : "it must be between " + min + " and " + max;
    }

    public static ValueCheck<Double> betweenDouble(double minExclusive, double maxInclusive) {
        return v -> v > minExclusive && v <= maxInclusive ? null
                : "it must be greater than " + minExclusive + " and at most " + maxInclusive;
    }

    public static ValueCheck<MemorySize> positiveMemory() {
        return v -> v.bytes() > 0 ? null : "it must be a positive size, e.g. '64 mb'";
    }

    public static ValueCheck<Duration> positiveDuration() {
        return v -> !v.isZero() && !v.isNegative() ? null : "it must be a positive duration, e.g. '10 s'";
    }

    /** -1 (unlimited) or a positive number. */
    public static ValueCheck<Integer> unlimitedOrPositive() {
        return v -> v == -1 || v > 0 ? null : "it must be -1 (unlimited) or a positive number";
    }

    /** One of {@code values}, ignoring case. */
    public static ValueCheck<String> oneOfIgnoringCase(String... values) {
        return v -> {
            for (String s : values) {
                if (s.equalsIgnoreCase(v.trim())) {
                    return null;
                }
            }
            return "it must be one of " + String.join(", ", values);
        };
    }

    /** Supported only when {@code value} equals one of {@code supported}; the message lists them. */
    @SafeVarargs
    public static <T> ValueCheck<T> only(T... supported) {
        return v -> {
            for (T s : supported) {
                if (s.equals(v)) {
                    return null;
                }
            }
            StringBuilder names = new StringBuilder();
            for (T s : supported) {
                names.append(names.length() == 0 ? "" : ", ").append('\'').append(s).append('\'');
            }
            return "only " + names + (supported.length == 1 ? " is" : " are") + " implemented";
        };
    }
}
