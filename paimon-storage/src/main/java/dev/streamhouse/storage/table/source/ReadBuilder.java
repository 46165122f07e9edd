package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.types.RowType;

import java.util.List;

/**
 * Configures a read of a table: projection, filter and snapshot; then plans a batch read
 * ({@link #newScan()}) or a streaming read ({@link #newStreamScan()}) and reads the splits
 * ({@link #newRead()}). Positions and predicates refer to the table's row type
 * ({@code Table.rowType()}).
 *
 * <p>A batch read reads the latest snapshot, or what the table options {@code scan.snapshot-id} /
 * {@code scan.timestamp-millis} select, or with {@code incremental-between} what a range of snapshots
 * changed. A streaming read starts as {@code scan.mode} / {@code consumer-id} say. The filter prunes
 * partitions, files and row groups; rows are filtered only with {@link TableRead#executeFilter()}.
 *
 * <p>Data tables read through {@link DataReadBuilder}; the system tables that show a table's data
 * ({@code t$audit_log}, {@code t$binlog}, {@code t$ro}) build on it. Not thread-safe; configure, then
 * hand the scans and reads to their users.
 */
public interface ReadBuilder {

    /**
     * Read only these columns (positions of the table's row type), in this order.
     *
     * @throws IllegalArgumentException if a position is out of range
     */
    ReadBuilder withProjection(int[] positions);

    /**
     * Read only the named columns, in this order.
     *
     * @throws IllegalArgumentException if a column does not exist
     */
    ReadBuilder withProjection(List<String> columns);

    /** A predicate over the full table row; AND-ed with earlier filters. Null adds nothing. */
    ReadBuilder withFilter(Predicate predicate);

    /**
     * Tells {@code listener}, in the planning thread, what each planning of the table's files by this
     * builder's scans took (manifests read, files skipped and selected); for an engine's scan metrics.
     */
    ReadBuilder withScanListener(dev.streamhouse.storage.metrics.ScanListener listener);

    /**
     * Reads only the partitions {@code partitions} (a predicate over partition columns of the table
     * row) selects, in place of a dynamic {@code scan.partitions} (max_pt()), which only a lookup join
     * can follow; AND-ed with the other filters.
     */
    ReadBuilder withResolvedPartitions(Predicate partitions);

    /**
     * Read this snapshot instead of the latest (time travel); overrides the options
     * {@code scan.snapshot-id} and {@code scan.timestamp-millis}. Planning fails if it does not exist.
     */
    ReadBuilder withSnapshot(long id);

    /**
     * Read the latest snapshot committed at or before {@code timestampMillis} (epoch millis), as
     * {@code FOR SYSTEM_TIME AS OF} does; overrides {@code scan.snapshot-id} and
     * {@code scan.timestamp-millis}. Planning fails with an {@link IllegalArgumentException} if every
     * snapshot is younger; an empty table reads as empty.
     */
    ReadBuilder withTimestampMillis(long timestampMillis);

    /** The type of rows the read returns. */
    RowType readType();

    /**
     * Plans a batch read: the chosen snapshot, or with option {@code incremental-between} the changes
     * of a range of snapshots.
     *
     * @throws IllegalArgumentException if {@code incremental-between} is malformed
     * @throws dev.streamhouse.storage.UnsupportedTableFeatureException if the table uses a feature reads
     *     do not support yet
     */
    TableScan newScan();

    /**
     * Plans a streaming read; see {@link StreamTableScan}.
     *
     * @throws IllegalArgumentException if {@code incremental-between} is set (a batch option) or the
     *     scan mode needs an option that is not set
     * @throws UnsupportedOperationException if the table cannot be read as a stream at all (e.g. the
     *     read-optimized view of a primary-key table)
     */
    StreamTableScan newStreamScan();

    /** Reads the splits of this builder's scans. */
    TableRead newRead();
}
