package dev.streamhouse.storage.data;

import java.io.Serializable;

/** Reads one field of a row as an internal object, or null. Created by {@link InternalRowUtils}. */
@FunctionalInterface
public interface FieldGetter extends Serializable {
    Object get(InternalRow row);
}
