package dev.streamhouse.storage.table.source;

import java.io.Serializable;

/** A unit of reading work that one reader task handles. */
public interface Split extends Serializable {

    /** Rows in the split's files before merging (an upper bound of rows returned). */
    long rowCount();
}
