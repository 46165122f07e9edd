package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.reader.ConcatRecordReader;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the rows of the splits its {@link ReadBuilder}'s scans planned, with the builder's projection
 * ({@link #outputType()}). The filter only prunes unless {@link #executeFilter()} is called.
 *
 * <p><b>Rows.</b> Every row returned is a view of its own that stays valid after later rows are read
 * and after its batch is released, as long as it is referenced; a consumer may hand rows to another
 * thread. Rows of a full split are the table's rows (kinds are the stored versions' kinds; engines
 * reset them to +I), rows of a delta split are changes with their kinds (+I, -U, +U, -D). See
 * {@link DataTableRead} for data tables.
 *
 * <p>Thread-safe for creating readers; each reader is single-threaded.
 */
public interface TableRead {

    /** Also drop rows that do not satisfy the filter (by default the filter only prunes). */
    TableRead executeFilter();

    /** The type of the rows returned. */
    RowType outputType();

    /**
     * The rows of one split.
     *
     * @throws IOException if a file cannot be read; the message names the file and table
     * @throws IllegalArgumentException if the split is not a {@link DataSplit}
     */
    RecordReader<InternalRow> createReader(Split split) throws IOException;

    /** The rows of the splits, one after another. */
    default RecordReader<InternalRow> createReader(List<? extends Split> splits) {
        List<ConcatRecordReader.ReaderSupplier<InternalRow>> suppliers = new ArrayList<>();
        for (Split s : splits) {
            suppliers.add(() -> createReader(s));
        }
        return new ConcatRecordReader<>(suppliers);
    }
}
