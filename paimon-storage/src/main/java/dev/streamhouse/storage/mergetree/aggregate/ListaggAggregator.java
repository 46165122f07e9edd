package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.options.MergeEngineOptions;
import dev.streamhouse.storage.types.DataTypeRoot;

/**
 * {@code listagg}: joins the non-null strings of a VARCHAR (or STRING) column in input order with the
 * delimiter {@code fields.<column>.list-agg-delimiter} (default ","). Apache Paimon 1.3.1 has no
 * distinct variant, refuses CHAR columns and does not cut the result to the declared length. Null never
 * contributes; retraction is not supported.
 */
final class ListaggAggregator extends NonRetractingAggregator {
    private final byte[] delimiter;

    private ListaggAggregator(ColumnFunction function, String delimiter) {
        super(function);
        this.delimiter = BinaryString.fromString(delimiter).toBytes();
    }

    static FieldAggregator create(ColumnFunction function) {
        if (function.type().root() != DataTypeRoot.VARCHAR) {
            throw function.typeRefused("VARCHAR and STRING");
        }
        return new ListaggAggregator(function,
                function.option(MergeEngineOptions.FIELD_LIST_AGG_DELIMITER, String.class));
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        BinaryString head = (BinaryString) accumulator;
        BinaryString tail = (BinaryString) input;
        byte[] joined = new byte[head.byteLength() + delimiter.length + tail.byteLength()];
        head.copyTo(joined, 0);
        System.arraycopy(delimiter, 0, joined, head.byteLength(), delimiter.length);
        tail.copyTo(joined, head.byteLength() + delimiter.length);
        return BinaryString.fromBytes(joined);
    }
}
