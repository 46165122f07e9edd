package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far the snapshot phase is: rows and tables done, as log lines (a table done, every
 * {@value #LOG_EVERY_ROWS} rows, the end) and as metrics of the reader's group {@code mysql-cdc}:
 * counter {@code snapshotRows}, gauges {@code snapshotTablesDone} and {@code snapshotFinished} (0/1).
 * With Debezium's snapshot, rows arrive table by table, so a table is done when rows of another
 * table (or the binlog) follow it. With the chunked snapshot, readers count rows and chunks; tables
 * done are the enumerator's metrics ({@code ChunkedSnapshotEnumerator}).
 */
final class SnapshotProgress {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotProgress.class);
    static final long LOG_EVERY_ROWS = 100_000;

    private final String address;
    private final Counter rows;
    private CdcTableId current;
    private long currentRows;
    private int tablesDone;
    private long chunks;
    private boolean finished;

    SnapshotProgress(String address, MetricGroup readerGroup) {
        this.address = address;
        MetricGroup group = readerGroup.addGroup("mysql-cdc");
        this.rows = group.counter("snapshotRows");
        group.gauge("snapshotTablesDone", () -> tablesDone);
        group.gauge("snapshotFinished", () -> finished ? 1 : 0);
    }

    /** A snapshot row of {@code table} was emitted. */
    void row(CdcTableId table) {
        if (!table.equals(current)) {
            tableDone();
            current = table;
            LOG.info("MySQL CDC snapshot of {}: reading {}", address, table);
        }
        currentRows++;
        rows.inc();
        if (rows.getCount() % LOG_EVERY_ROWS == 0) {
            LOG.info("MySQL CDC snapshot of {}: {} rows of {} so far; {} tables and {} rows done in all", address,
                    currentRows, current, tablesDone, rows.getCount());
        }
    }

    /** A chunk of {@code rows} rows of {@code table} was emitted (chunked snapshot: tables interleave). */
    void chunk(CdcTableId table, int rows) {
        long before = this.rows.getCount();
        this.rows.inc(rows);
        chunks++;
        if (before / LOG_EVERY_ROWS != this.rows.getCount() / LOG_EVERY_ROWS) {
            LOG.info("MySQL CDC snapshot of {}: {} rows in {} chunks read by this reader so far (last from {})",
                    address, this.rows.getCount(), chunks, table);
        }
    }

    /** The snapshot phase ended. */
    void finished() {
        tableDone();
        finished = true;
        LOG.info("MySQL CDC snapshot of {} finished: {} tables, {} rows; reading the binlog", address, tablesDone,
                rows.getCount());
    }

    long rowsDone() {
        return rows.getCount();
    }

    int tablesDone() {
        return tablesDone;
    }

    boolean isFinished() {
        return finished;
    }

    private void tableDone() {
        if (current != null) {
            tablesDone++;
            LOG.info("MySQL CDC snapshot of {}: table {} done, {} rows ({} tables, {} rows so far)", address, current,
                    currentRows, tablesDone, rows.getCount());
            current = null;
            currentRows = 0;
        }
    }
}
