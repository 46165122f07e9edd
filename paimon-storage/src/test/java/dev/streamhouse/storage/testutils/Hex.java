package dev.streamhouse.storage.testutils;

import java.util.HexFormat;

/** Hex helpers for byte-exact format tests; hex text may contain spaces between byte groups. */
public final class Hex {
    private Hex() {}

    /** Parses hex such as {@code "0000000000000000 0100000000000000"}; whitespace is ignored. */
    public static byte[] parse(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s+", ""));
    }

    /** Lower-case hex in groups of 8 bytes separated by spaces, the notation docs/format.md uses. */
    public static String grouped(byte[] bytes) {
        String plain = HexFormat.of().formatHex(bytes);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < plain.length(); i += 16) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(plain, i, Math.min(plain.length(), i + 16));
        }
        return sb.toString();
    }

    /** Normalises hex text from any grouping to the {@link #grouped(byte[])} form. */
    public static String regroup(String hex) {
        return grouped(parse(hex));
    }
}
