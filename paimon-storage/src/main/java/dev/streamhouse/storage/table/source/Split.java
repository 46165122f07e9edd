package dev.streamhouse.storage.table.source;

/** A unit of reading work that one reader task handles. */
public interface Split {

    /** Rows in the split's files before merging (an upper bound of rows returned). */
    long rowCount();
}
