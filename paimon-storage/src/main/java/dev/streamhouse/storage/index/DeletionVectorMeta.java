package dev.streamhouse.storage.index;

/**
 * Where the deletion vector of one data file lies in a DV index file.
 *
 * @param cardinality number of deleted rows; null if unknown
 */
public record DeletionVectorMeta(String dataFileName, int offset, int length, Long cardinality) implements java.io.Serializable {}
