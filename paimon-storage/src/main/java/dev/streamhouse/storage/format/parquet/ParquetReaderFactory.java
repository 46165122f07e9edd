package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.format.FormatReaderFactory;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.reader.ColumnarRecordReader;
import dev.streamhouse.storage.types.RowType;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;

/**
 * Opens Parquet data files for a fixed read type and optional row-group filter, as columnar readers
 * ({@link ParquetColumnarReader}, {@link #BATCH_SIZE} rows per batch). Columns are matched by name;
 * only the read columns are fetched; page checksums are verified when present, so corrupt pages fail
 * instead of decoding into garbage.
 */
final class ParquetReaderFactory implements FormatReaderFactory {
    private static final long serialVersionUID = 1L;
    /** Rows per batch: Apache Paimon's {@code read.batch-size} default. */
    static final int BATCH_SIZE = 1024;

    private final RowType readType;
    private final Predicate filter;

    /** @param filter over positions of {@code readType}; null reads every row group */
    ParquetReaderFactory(RowType readType, Predicate filter) {
        this.readType = readType;
        this.filter = filter;
    }

    @Override
    public ColumnarRecordReader createReader(FileIO fileIO, Path file, long fileSize) throws IOException {
        ParquetFileReader reader;
        try {
            reader = new ParquetFileReader(new ParquetInputFile(fileIO, file, fileSize), readOptions());
        } catch (IOException | RuntimeException | LinkageError e) {
            throw ParquetErrors.readFailure(file, e);
        }
        try {
            MessageType fileSchema = reader.getFileMetaData().getSchema();
            MessageType requested = ParquetReadSchema.requestedSchema(readType, fileSchema, file);
            reader.setRequestedSchema(requested);
            RowGroupFilter rowGroupFilter = filter == null ? null : new RowGroupFilter(readType, filter, fileSchema);
            FilterPredicate pageFilter = ParquetFilters.of(filter, readType, fileSchema).orElse(null);
            return new ParquetColumnarReader(reader, file, readType, requested, BATCH_SIZE, rowGroupFilter,
                    pageFilter);
        } catch (IOException | RuntimeException | LinkageError e) {
            try {
                reader.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw ParquetErrors.readFailure(file, e);
        }
    }

    private static final Configuration NO_HADOOP_DEFAULTS = new Configuration(false);

    /**
     * Parquet-mr filters nothing itself: {@link ParquetColumnarReader} chooses row groups
     * ({@link RowGroupFilter}) and pages ({@link ParquetFilters}); rows are never filtered one by one.
     * New options per file: they own the decompressors ({@link ParquetReadCodecs}) that the file reader releases
     * when it closes, so options shared by readers on several threads (Flink source readers of one
     * TaskManager, a lookup cache loading splits in parallel) fail with a ConcurrentModificationException
     * or hand one decompressor to two readers.
     */
    private static ParquetReadOptions readOptions() {
        return HadoopReadOptions.builder(NO_HADOOP_DEFAULTS)
                .useStatsFilter(false)
                .useDictionaryFilter(false)
                .useRecordFilter(false)
                .useColumnIndexFilter(false)
                .useBloomFilter(false)
                .usePageChecksumVerification(true)
                .withCodecFactory(new ParquetReadCodecs(NO_HADOOP_DEFAULTS))
                .build();
    }
}
