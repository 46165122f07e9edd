package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.format.FieldStats;
import dev.streamhouse.storage.format.FormatWriter;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Writes and reads Parquet files through the format's public seams, for tests. */
final class ParquetTestFiles {
    private static final ParquetFileFormat FORMAT = new ParquetFileFormat();

    private ParquetTestFiles() {}

    /** Writes {@code rows} and returns the writer's field statistics. */
    static FieldStats[] write(Path file, RowType rowType, Options options, List<? extends InternalRow> rows)
            throws IOException {
        PositionOutputStream out = LocalFileIO.INSTANCE.newOutputStream(file, false);
        FormatWriter writer = FORMAT.writerFactory(rowType, options).create(out);
        for (InternalRow row : rows) {
            writer.add(row);
        }
        writer.close();
        return writer.fieldStats();
    }

    static List<InternalRow> read(Path file, RowType readType, Predicate filter) throws IOException {
        return readBatches(file, readType, filter).stream().flatMap(List::stream).toList();
    }

    /** The rows of each batch, in order (copies: readers reuse their rows and vectors). */
    static List<List<InternalRow>> readBatches(Path file, RowType readType, Predicate filter) throws IOException {
        long size = LocalFileIO.INSTANCE.size(file);
        List<List<InternalRow>> batches = new ArrayList<>();
        try (RecordReader<InternalRow> reader =
                FORMAT.readerFactory(readType, filter).createReader(LocalFileIO.INSTANCE, file, size)) {
            RecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                List<InternalRow> rows = new ArrayList<>();
                InternalRow row;
                while ((row = batch.next()) != null) {
                    rows.add(InternalRowUtils.copyToGeneric(row, readType));
                }
                batch.releaseBatch();
                batches.add(rows);
            }
        }
        return batches;
    }

    /** The footer, read independently with parquet-mr's own reader. */
    static ParquetMetadata footer(Path file) throws IOException {
        long size = LocalFileIO.INSTANCE.size(file);
        try (ParquetFileReader reader = ParquetFileReader.open(new ParquetInputFile(LocalFileIO.INSTANCE, file, size))) {
            return reader.getFooter();
        }
    }
}
