package dev.streamhouse.bench;

/**
 * Reads every split of a table through one store's own Java read API, in the calling thread, without
 * Flink: what workload {@code reader-scan} times. Each implementation's class is loaded by name
 * ({@link StoreApis}), so that a run's classpath needs only its own store.
 *
 * <p>Every row's columns {@code i} (INT), {@code b} (BIGINT) and {@code s} (STRING, its UTF-8 length)
 * of the benchmark's tables ({@link FlinkWorkloads#COLUMNS}) are read into a checksum, so that a
 * reader cannot skip decoding them, and two stores reading the same table must report the same sums.
 */
interface StoreReader extends AutoCloseable {

    /** Opens {@code warehouseUri}'s filesystem catalog; called once, before any scan. */
    void open(String warehouseUri) throws Exception;

    /** Plans {@code db.table}'s latest snapshot and reads every split, one after another. */
    Sums scan(String database, String table) throws Exception;

    /** What a scan read: its splits and rows, and the sums of the columns read. */
    record Sums(long splits, long rows, long sumI, long sumB, long stringBytes) {
        /** Equal sums of the same table: the splits may differ per store. */
        boolean sameRows(Sums other) {
            return rows == other.rows && sumI == other.sumI && sumB == other.sumB
                    && stringBytes == other.stringBytes;
        }
    }
}
