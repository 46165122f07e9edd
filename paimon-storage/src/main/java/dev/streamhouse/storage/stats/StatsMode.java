package dev.streamhouse.storage.stats;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What statistics to keep for a column: {@code none}, {@code counts} (null count only), {@code full}
 * or {@code truncate(N)} (strings cut to N code points, the maximum rounded up).
 */
public final class StatsMode {
    private static final Pattern TRUNCATE = Pattern.compile("truncate\\((\\d+)\\)");

    /** Kinds of modes. */
    public enum Kind {
        NONE,
        COUNTS,
        FULL,
        TRUNCATE
    }

    public static final StatsMode NONE = new StatsMode(Kind.NONE, 0);
    public static final StatsMode COUNTS = new StatsMode(Kind.COUNTS, 0);
    public static final StatsMode FULL = new StatsMode(Kind.FULL, 0);

    private final Kind kind;
    private final int length;

    private StatsMode(Kind kind, int length) {
        this.kind = kind;
        this.length = length;
    }

    public static StatsMode truncate(int length) {
        return new StatsMode(Kind.TRUNCATE, length);
    }

    /** Parses a mode; the error names the option the text came from. */
    public static StatsMode parse(String text, String optionKey) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "none":
                return NONE;
            case "counts":
                return COUNTS;
            case "full":
                return FULL;
            default:
                Matcher m = TRUNCATE.matcher(t);
                if (m.matches()) {
                    return truncate(Integer.parseInt(m.group(1)));
                }
                throw new IllegalArgumentException("Invalid value '" + text + "' for option '" + optionKey
                        + "': use none, counts, full or truncate(N)");
        }
    }

    public Kind kind() {
        return kind;
    }

    /** Code points kept by {@code truncate(N)}. */
    public int length() {
        return length;
    }

    @Override
    public String toString() {
        return kind == Kind.TRUNCATE ? "truncate(" + length + ")" : kind.name().toLowerCase(Locale.ROOT);
    }
}
