package dev.streamhouse.storage.data;

/**
 * A row of internal values (see {@link DataGetters}) with a {@link RowKind}. Implementations may be
 * reused by readers between calls; copy a row that must outlive the next call.
 */
public interface InternalRow extends DataGetters {

    int arity();

    RowKind rowKind();

    void setRowKind(RowKind kind);
}
