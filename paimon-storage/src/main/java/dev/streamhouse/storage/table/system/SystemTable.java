package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.types.RowType;

/**
 * A read-only table computed from a data table's metadata, named {@code <table>$<name>}, with the
 * columns of Apache Paimon's table of the same name. Engine-neutral: rows are this store's
 * {@code InternalRow}s, read through {@link #newRead()} with projection and filters, computed when
 * they are read, from the files under the table's directory (a snapshot-based table shows the snapshot
 * the data table's {@code scan.snapshot-id} / {@code scan.timestamp-millis} choose, else the latest).
 * An engine only adapts rows and types.
 */
public interface SystemTable {

    /** The name after {@code $}, e.g. {@code files}. */
    String name();

    /** {@code <database>.<table>$<name>}. */
    String fullName();

    /** Column names and types. */
    RowType rowType();

    /** A read of the rows, all columns and rows unless narrowed. */
    SystemTableRead newRead();
}
