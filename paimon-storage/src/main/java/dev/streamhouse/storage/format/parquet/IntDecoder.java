package dev.streamhouse.storage.format.parquet;

import java.io.IOException;

/** A stream of small ints of a page: definition levels or dictionary ids. */
interface IntDecoder {

    /** Decodes the next {@code n} values into {@code out[offset, offset + n)}. */
    void read(int[] out, int offset, int n) throws IOException;

    /** Skips the next {@code n} values. */
    void skip(int n) throws IOException;
}
