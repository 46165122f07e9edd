package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.format.FieldStats;
import dev.streamhouse.storage.format.FormatWriter;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.hadoop.ParquetWriter;

import java.io.IOException;
import java.util.stream.IntStream;

/**
 * A {@link FormatWriter} producing one Parquet data file. Column statistics are taken from the
 * footer after {@link #close()}.
 *
 * <p>A NULL in a NOT NULL top-level column is rejected before anything is written, and the writer
 * stays usable. Any other failure of {@link #add} leaves the file incomplete: {@link #close()} then
 * only closes the stream (without a footer or an error) and the caller must delete the file.
 */
final class ParquetRowWriter implements FormatWriter {
    private final RowType rowType;
    private final ParquetOutputFile output;
    private final ParquetWriter<InternalRow> writer;
    private final int[] requiredFields;
    private FieldStats[] fieldStats;
    private long finalLength = -1;
    private boolean failed;

    ParquetRowWriter(RowType rowType, ParquetOutputFile output, ParquetWriter<InternalRow> writer) {
        this.rowType = rowType;
        this.output = output;
        this.writer = writer;
        this.requiredFields = IntStream.range(0, rowType.fieldCount())
                .filter(i -> !rowType.typeAt(i).isNullable())
                .toArray();
    }

    @Override
    public void add(InternalRow row) throws IOException {
        if (finalLength >= 0) {
            throw new IllegalStateException("Cannot add a row to a Parquet file: the writer is closed");
        }
        if (failed) {
            throw new IllegalStateException("Cannot add a row to a Parquet file: an earlier row failed to write");
        }
        for (int i : requiredFields) {
            if (row.isNullAt(i)) {
                throw new IllegalArgumentException("Cannot write row to Parquet: column '"
                        + rowType.field(i).name() + "' is NOT NULL but the value is NULL");
            }
        }
        try {
            writer.write(row);
        } catch (IOException | RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    @Override
    public long estimatedLength() throws IOException {
        return finalLength >= 0 ? finalLength : writer.getDataSize();
    }

    @Override
    public void close() throws IOException {
        if (finalLength >= 0) {
            return;
        }
        try {
            // after a failed add Parquet only releases its resources and writes no footer
            writer.close();
            if (!failed) {
                fieldStats = ParquetStats.fileStats(rowType, writer.getFooter());
            }
        } finally {
            output.closeStream();
            finalLength = output.position();
        }
    }

    @Override
    public FieldStats[] fieldStats() {
        if (fieldStats == null) {
            throw new IllegalStateException(
                    "Cannot report Parquet column statistics: the writer is not closed (or closing failed)");
        }
        return fieldStats.clone();
    }
}
