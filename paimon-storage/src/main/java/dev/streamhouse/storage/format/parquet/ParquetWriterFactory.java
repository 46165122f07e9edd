package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.format.FormatWriter;
import dev.streamhouse.storage.format.FormatWriterFactory;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;

/** Creates {@link ParquetRowWriter}s for one row type and one set of resolved writer settings. */
final class ParquetWriterFactory implements FormatWriterFactory {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final ParquetWriteOptions options;

    ParquetWriterFactory(RowType rowType, ParquetWriteOptions options) {
        this.rowType = rowType;
        this.options = options;
    }

    @Override
    public FormatWriter create(PositionOutputStream out) throws IOException {
        ParquetOutputFile file = new ParquetOutputFile(out);
        try {
            RowParquetWriterBuilder builder = new RowParquetWriterBuilder(file, new RowWriteSupport(rowType));
            return new ParquetRowWriter(rowType, file, options.applyTo(builder).build());
        } catch (IOException | RuntimeException e) {
            file.closeStream();
            throw e;
        }
    }
}
