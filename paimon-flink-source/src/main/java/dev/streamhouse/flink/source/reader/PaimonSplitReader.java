package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.reader.ColumnarRowIterator;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.table.source.TableRead;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads assigned splits one after another with a storage {@link TableRead}, in the fetcher thread, and
 * hands their rows to the task thread, at most {@link #MAX_RECORDS_PER_FETCH} per fetch, in
 * {@link RowChunk}s of {@link #ROWS_PER_CHUNK} that the task thread emits one at a time.
 *
 * <p><b>No copies, no object per row.</b> The batches a {@link TableRead} returns are column vectors
 * that are never refilled (see its "Batches and rows"), so they stay valid while this reader reads on:
 * a columnar batch's rows go into {@link RowChunk}s as row ids, and the task thread emits them later
 * through one reused view. Other batches (merge reads) return rows of their own, which chunks hold.
 *
 * <p><b>Restore.</b> A split with {@link PaimonSplit#recordsToSkip()} n is read from the start and
 * its first n rows are dropped: a split's rows always come in the same order.
 *
 * <p><b>Row kinds.</b> Rows of a full split (one snapshot's live data) are all inserts: a primary-key
 * table's merged rows keep the kind of their latest version (say +U), which is reset to +I here. Rows
 * of a delta split (the changes of one snapshot in a streaming read) keep their kinds (+I, -U, +U,
 * -D), which the emitted Flink rows carry.
 *
 * <p><b>Order.</b> Splits are read strictly one after another in the order they were added (one
 * fetcher thread per source reader), which keeps a bucket's changes in snapshot order.
 *
 * <p><b>Limit.</b> Once the limiter is reached, every assigned split is reported finished without
 * reading further.
 *
 * <p>Used by one fetcher thread only. {@link #fetch()} never waits for anything but storage I/O, so
 * {@link #wakeUp()} has nothing to interrupt.
 */
public final class PaimonSplitReader implements SplitReader<RowChunk, PaimonSplit> {
    static final int MAX_RECORDS_PER_FETCH = 1024;
    /**
     * Rows per {@link RowChunk}. The task thread emits a chunk in one go and takes a checkpoint only
     * between chunks, so this bounds how many rows' downstream work (of chained operators) a checkpoint
     * may wait for; Flink's per-record overhead in the task thread is paid once per chunk.
     */
    static final int ROWS_PER_CHUNK = 64;

    private final TableRead read;
    private final RecordLimiter limiter;
    private final ArrayDeque<PaimonSplit> pending = new ArrayDeque<>();

    private PaimonSplit current;
    private RecordReader<InternalRow> reader;
    private RecordIterator<InternalRow> batch;
    /** {@link #batch} when it is columnar: its rows are taken by id, without a row object each. */
    private ColumnarRowIterator columnar;

    private final FetchLag fetchLag;

    /** @param read the configured read (projection, filter with {@code executeFilter()}) */
    public PaimonSplitReader(TableRead read, RecordLimiter limiter) {
        this(read, limiter, FetchLag.unregistered());
    }

    /** @param fetchLag told when each split is opened */
    public PaimonSplitReader(TableRead read, RecordLimiter limiter, FetchLag fetchLag) {
        this.read = read;
        this.limiter = limiter;
        this.fetchLag = fetchLag;
    }

    @Override
    public RecordsWithSplitIds<RowChunk> fetch() throws IOException {
        if (limiter.reached()) {
            return finishAll();
        }
        if (current == null) {
            PaimonSplit next = pending.poll();
            if (next == null) {
                return new RecordsBySplits<>(Map.of(), Set.of());
            }
            open(next);
        }
        String splitId = current.splitId();
        // As Apache Paimon 1.3 reads: a merged row keeps its stored kind (+U where the latest version is an
        // update), and so does a change; rows read file by file without merging are inserts.
        RowKind kind = current.dataSplit().delta() || !current.dataSplit().rawConvertible() ? null : RowKind.INSERT;
        RecordsBySplits.Builder<RowChunk> out = new RecordsBySplits.Builder<>();
        RowChunk chunk = null;
        int taken = 0;
        while (taken < MAX_RECORDS_PER_FETCH) {
            if (!advance()) {
                closeCurrent();
                out.addFinishedSplit(splitId);
                break;
            }
            if (columnar != null) {
                int id = columnar.nextRowId();
                if (id < 0) {
                    releaseBatch();
                    continue;
                }
                if (chunk == null || chunk.isFull() || !chunk.holdsRowsOf(columnar.batch())) {
                    if (chunk != null) {
                        out.add(splitId, chunk);
                    }
                    chunk = RowChunk.ofBatch(columnar.batch(), ROWS_PER_CHUNK, kind);
                }
                chunk.addRowId(id);
            } else {
                InternalRow row = batch.next();
                if (row == null) {
                    releaseBatch();
                    continue;
                }
                if (kind != null) {
                    row.setRowKind(kind);
                }
                if (chunk == null || chunk.isFull() || !chunk.holdsRowObjects()) {
                    if (chunk != null) {
                        out.add(splitId, chunk);
                    }
                    chunk = RowChunk.ofRows(ROWS_PER_CHUNK);
                }
                chunk.add(row);
            }
            taken++;
        }
        if (chunk != null && chunk.size() > 0) {
            out.add(splitId, chunk);
        }
        return out.build();
    }

    private void open(PaimonSplit split) throws IOException {
        current = split;
        fetchLag.splitOpened(split);
        reader = read.createReader(split.dataSplit());
        for (long skipped = 0; skipped < split.recordsToSkip(); skipped++) {
            if (nextRow() == null) {
                closeCurrent();
                throw new IOException("Cannot restore " + split + ": the checkpoint says " + split.recordsToSkip()
                        + " of its records were emitted, but it has only " + skipped
                        + "; were data files of the snapshot replaced?");
            }
        }
    }

    /** The next row of the current split, or null at its end (used to skip restored rows). */
    private InternalRow nextRow() throws IOException {
        while (advance()) {
            InternalRow row = batch.next();
            if (row != null) {
                return row;
            }
            releaseBatch();
        }
        return null;
    }

    /** Makes sure a batch is open; false at the end of the current split. */
    private boolean advance() throws IOException {
        if (batch == null) {
            batch = reader.readBatch();
            if (batch == null) {
                return false;
            }
            columnar = batch instanceof ColumnarRowIterator c ? c : null;
        }
        return true;
    }

    private void releaseBatch() {
        batch.releaseBatch();
        batch = null;
        columnar = null;
    }

    private RecordsWithSplitIds<RowChunk> finishAll() throws IOException {
        Set<String> finished = new LinkedHashSet<>();
        if (current != null) {
            finished.add(current.splitId());
            closeCurrent();
        }
        for (PaimonSplit s : pending) {
            finished.add(s.splitId());
        }
        pending.clear();
        return new RecordsBySplits<>(Map.of(), finished);
    }

    private void closeCurrent() throws IOException {
        RecordReader<InternalRow> r = reader;
        if (batch != null) {
            batch.releaseBatch();
        }
        batch = null;
        columnar = null;
        reader = null;
        current = null;
        if (r != null) {
            r.close();
        }
    }

    @Override
    public void handleSplitsChanges(SplitsChange<PaimonSplit> splitsChanges) {
        if (!(splitsChanges instanceof SplitsAddition)) {
            throw new UnsupportedOperationException("Cannot handle split change " + splitsChanges
                    + ": the Paimon source only ever adds splits");
        }
        pending.addAll(splitsChanges.splits());
    }

    @Override
    public void wakeUp() {
        // fetch() returns after at most one chunk and never blocks on anything this could interrupt.
    }

    @Override
    public void close() throws Exception {
        closeCurrent();
        pending.clear();
    }
}
