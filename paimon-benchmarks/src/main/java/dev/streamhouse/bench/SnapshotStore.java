package dev.streamhouse.bench;

import java.util.Map;

/**
 * One store's Java write and plan API, without Flink, as workload {@code scale-snapshots} uses it: a
 * streaming writer that commits small batches under one commit user, and batch and streaming plans of
 * the same table. Each implementation's class is loaded by name ({@link StoreApis}), so that a
 * run's classpath needs only its own store.
 */
interface SnapshotStore extends AutoCloseable {

    /** Opens {@code warehouseUri}'s filesystem catalog; called once, first. */
    void open(String warehouseUri) throws Exception;

    /**
     * Creates {@code db.table} afresh, a primary-key table {@code (id BIGINT, v BIGINT, PRIMARY KEY
     * (id))} with {@code options}, and opens one streaming writer and commit on it (one commit user).
     */
    void createTable(String database, String table, Map<String, String> options) throws Exception;

    /**
     * Writes rows {@code (id, value)} for ids [firstId, firstId + count) and prepares their commit as
     * commit {@code identifier} (the data file is written here, not in {@link #commit}).
     */
    void write(long firstId, int count, long value, long identifier) throws Exception;

    /** Commits what {@link #write} prepared, as commit {@code identifier}. */
    void commit(long identifier) throws Exception;

    /** The id of the table's latest snapshot (0 when it has none). */
    long latestSnapshotId() throws Exception;

    /** Plans a batch read of the latest snapshot; returns its splits. */
    int planBatch() throws Exception;

    /**
     * Plans a streaming read restored to the latest snapshot (what a streaming job resuming there
     * plans first: that snapshot's changes); returns its splits.
     */
    int planStreaming() throws Exception;

    /** Reads the latest snapshot: the number of rows and the sum of {@code v}. */
    long[] countAndSum() throws Exception;
}
