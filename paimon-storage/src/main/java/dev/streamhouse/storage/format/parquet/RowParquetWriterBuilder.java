package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.InternalRow;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;

/** Parquet's writer builder bound to our {@link RowWriteSupport}. */
final class RowParquetWriterBuilder extends ParquetWriter.Builder<InternalRow, RowParquetWriterBuilder> {
    private final RowWriteSupport writeSupport;

    RowParquetWriterBuilder(OutputFile file, RowWriteSupport writeSupport) {
        super(file);
        this.writeSupport = writeSupport;
    }

    @Override
    protected RowParquetWriterBuilder self() {
        return this;
    }

    @Override
    protected WriteSupport<InternalRow> getWriteSupport(Configuration conf) {
        return writeSupport;
    }

    @Override
    protected WriteSupport<InternalRow> getWriteSupport(ParquetConfiguration conf) {
        return writeSupport;
    }
}
