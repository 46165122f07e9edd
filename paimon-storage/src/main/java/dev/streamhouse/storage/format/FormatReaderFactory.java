package dev.streamhouse.storage.format;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.reader.ColumnarRecordReader;

import java.io.IOException;
import java.io.Serializable;

/**
 * Creates readers for data files of one format, producing batches of column vectors of a fixed read
 * type. Columns are matched to the file by name; a column the file lacks reads as null.
 */
public interface FormatReaderFactory extends Serializable {

    /**
     * Opens {@code file} (of {@code fileSize} bytes, taken from the manifest so no extra status call
     * is needed). Errors name the file.
     */
    ColumnarRecordReader createReader(FileIO fileIO, Path file, long fileSize) throws IOException;
}
