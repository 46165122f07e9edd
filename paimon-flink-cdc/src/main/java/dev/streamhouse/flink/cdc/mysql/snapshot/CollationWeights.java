package dev.streamhouse.flink.cdc.mysql.snapshot;

/**
 * The server's weight strings of character values: byte strings whose unsigned order is the
 * collation's order ({@code WEIGHT_STRING}, what the server sorts by). {@link KeyOrder} asks for
 * them to order keys of character columns in a linguistic collation, which Java cannot reproduce.
 */
public interface CollationWeights {

    /**
     * The weight string of {@code value} in {@code collation} of {@code charset}; with a positive
     * {@code padLength} the value is padded with spaces to that many characters first (PAD SPACE
     * collations compare as if the shorter value were padded).
     */
    byte[] weight(String value, String charset, String collation, int padLength);
}
