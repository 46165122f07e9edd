package dev.streamhouse.storage.format.parquet;

import org.apache.parquet.column.values.ValuesReader;

/** Ints from one of parquet-mr's own value readers, for encodings we do not decode ourselves. */
final class ValuesReaderIntDecoder implements IntDecoder {
    private final ValuesReader reader;

    ValuesReaderIntDecoder(ValuesReader reader) {
        this.reader = reader;
    }

    @Override
    public void read(int[] out, int offset, int n) {
        for (int i = 0; i < n; i++) {
            out[offset + i] = reader.readInteger();
        }
    }

    @Override
    public void skip(int n) {
        reader.skip(n);
    }
}
