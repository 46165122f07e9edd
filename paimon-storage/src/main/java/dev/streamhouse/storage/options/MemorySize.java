package dev.streamhouse.storage.options;

import java.io.Serializable;
import java.util.Locale;

/** A byte size parsed from text such as {@code 128 mb}, {@code 64kb} or {@code 1024} (bytes). */
public final class MemorySize implements Serializable, Comparable<MemorySize> {
    private static final long serialVersionUID = 1L;

    private final long bytes;

    private MemorySize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("A memory size cannot be negative: " + bytes);
        }
        this.bytes = bytes;
    }

    public static MemorySize ofBytes(long bytes) {
        return new MemorySize(bytes);
    }

    public static MemorySize ofMebiBytes(long mebibytes) {
        return new MemorySize(mebibytes << 20);
    }

    public long bytes() {
        return bytes;
    }

    /** Parses a number with an optional unit: b, k/kb/kibibytes, m/mb, g/gb, t/tb (powers of 1024). */
    public static MemorySize parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("Cannot parse memory size '" + text + "': it must start with a number");
        }
        long number = Long.parseLong(t.substring(0, i));
        String unit = t.substring(i).trim();
        long multiplier;
        switch (unit) {
            case "":
            case "b":
            case "bytes":
                multiplier = 1;
                break;
            case "k":
            case "kb":
            case "kibibytes":
                multiplier = 1L << 10;
                break;
            case "m":
            case "mb":
            case "mebibytes":
                multiplier = 1L << 20;
                break;
            case "g":
            case "gb":
            case "gibibytes":
                multiplier = 1L << 30;
                break;
            case "t":
            case "tb":
            case "tebibytes":
                multiplier = 1L << 40;
                break;
            default:
                throw new IllegalArgumentException(
                        "Cannot parse memory size '" + text + "': unknown unit '" + unit + "' (use b, kb, mb, gb, tb)");
        }
        return new MemorySize(Math.multiplyExact(number, multiplier));
    }

    @Override
    public int compareTo(MemorySize o) {
        return Long.compare(bytes, o.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemorySize && ((MemorySize) o).bytes == bytes;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(bytes);
    }

    @Override
    public String toString() {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " gb";
        } else if (bytes != 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " mb";
        } else if (bytes != 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " kb";
        }
        return bytes + " bytes";
    }
}
