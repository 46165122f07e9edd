package dev.streamhouse.bench;

import java.util.Map;

/**
 * One store's Java write and plan API, without Flink, as workload {@code scale-files} uses it: a
 * partitioned primary-key table {@code (p INT, id BIGINT, v BIGINT, PRIMARY KEY (p, id))}, partitioned
 * by {@code p}, that gets one file per partition per commit, and plans of a full scan, of one partition
 * and of one key. Each implementation's class is created by name ({@link StoreApis}), so that a run's
 * classpath needs only its own store.
 */
interface FileCountStore extends AutoCloseable {

    /** Opens {@code warehouseUri}'s filesystem catalog; called once, first. */
    void open(String warehouseUri) throws Exception;

    /** Creates {@code db.table} afresh with {@code options} and opens one streaming writer and commit on it. */
    void createTable(String database, String table, Map<String, String> options) throws Exception;

    /** Writes the row {@code (p, id, id)} for every p in [0, partitions) and commits it as {@code identifier}. */
    void writeEveryPartition(int partitions, long id, long identifier) throws Exception;

    /** Plans a batch read of the latest snapshot; returns its splits and data files. */
    Planned planAll() throws Exception;

    /** Plans a batch read of partition {@code p = partition}. */
    Planned planPartition(int partition) throws Exception;

    /** Plans a batch read of {@code p = partition AND id = id}. */
    Planned planKey(int partition, long id) throws Exception;

    /** What a plan selected. */
    record Planned(int splits, long files) {}
}
