package dev.streamhouse.storage.schema;

/**
 * Names and field ids of the system columns of primary-key data files (docs/format.md §8.2): {@code _KEY_<k>}
 * for each trimmed primary-key column, {@code _SEQUENCE_NUMBER} and {@code _VALUE_KIND}. Both the
 * file layout ({@code mergetree.KeyValueLayout}) and the read plan that maps a file's columns by id
 * ({@code read.DataFileReadPlan}) use them.
 */
public final class SystemFields {
    private SystemFields() {}

    public static final String KEY_PREFIX = "_KEY_";
    public static final String SEQUENCE_NUMBER = "_SEQUENCE_NUMBER";
    public static final String VALUE_KIND = "_VALUE_KIND";
    /** Field id of {@code _KEY_<k>} is this plus the id of column k. */
    public static final int KEY_FIELD_ID_START = Integer.MAX_VALUE / 2;
    public static final int SEQUENCE_NUMBER_FIELD_ID = Integer.MAX_VALUE - 1;
    public static final int VALUE_KIND_FIELD_ID = Integer.MAX_VALUE - 2;
}
