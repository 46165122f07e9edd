package dev.streamhouse.storage;

/**
 * A table uses something this store cannot yet read or write exactly as Apache Paimon does (deletion
 * vectors, another merge engine, a data file format other than Parquet, metadata written by a newer
 * Paimon, ...). Thrown before anything is read or written, naming the table and the feature, so that
 * no query returns rows Paimon would not return and no write damages the table. Do not retry.
 */
public final class UnsupportedTableFeatureException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    public UnsupportedTableFeatureException(String message) {
        super(message);
    }
}
