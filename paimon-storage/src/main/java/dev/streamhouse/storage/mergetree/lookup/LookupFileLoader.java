package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Builds the lookup file of one data file: reads every record of the data file, in file order, and writes
 * it with its row position. Row positions count the records read, so the reader factory must return every
 * row: no deletion vectors, and the count is checked against the file's row count.
 */
final class LookupFileLoader {
    private LookupFileLoader() {}

    /**
     * @throws IOException naming the data file if it cannot be read, is not sorted by unique keys, or the
     *     local file cannot be written; nothing is left at {@code target} then
     */
    static LookupFile load(KeyValueFileReaderFactory readers, BinaryRow partition, int bucket, DataFileMeta file,
            Path target, LookupFileSettings settings) throws IOException {
        LookupFileWriter writer;
        try {
            writer = LookupFileWriter.create(target, readers.layout().keyType(), readers.valueReadType(), settings,
                    file.rowCount());
        } catch (IOException | RuntimeException e) {
            throw failure(file, bucket, "cannot create local file " + target + ": " + e, e);
        }
        try {
            long rows = copy(readers.createReader(partition, bucket, file), writer);
            if (rows != file.rowCount()) {
                throw new IOException("read " + rows + " records but the file has " + file.rowCount()
                        + " rows; row positions would be wrong (are deletion vectors applied by the reader?)");
            }
            return writer.finish();
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw failure(file, bucket, e.getMessage(), e);
        }
    }

    private static long copy(RecordReader<KeyValue> reader, LookupFileWriter writer) throws IOException {
        long position = 0;
        try (reader) {
            RecordIterator<KeyValue> batch;
            while ((batch = reader.readBatch()) != null) {
                try {
                    KeyValue record;
                    while ((record = batch.next()) != null) {
                        writer.add(record, position++);
                    }
                } finally {
                    batch.releaseBatch();
                }
            }
        }
        return position;
    }

    private static IOException failure(DataFileMeta file, int bucket, String why, Exception cause) {
        return new IOException("Cannot build the local lookup file of data file " + file.fileName() + " (bucket "
                + bucket + ", level " + file.level() + "): " + why, cause);
    }
}
