package dev.streamhouse.storage.format;

import dev.streamhouse.storage.format.parquet.ParquetFileFormat;

import java.util.Locale;

/** The file formats this store reads and writes, by identifier (also the file extension). */
public final class FileFormats {
    private FileFormats() {}

    /** The format for an identifier; fails naming what is supported. */
    public static FileFormat of(String identifier) {
        switch (identifier.toLowerCase(Locale.ROOT)) {
            case "parquet":
                return new ParquetFileFormat();
            default:
                throw new IllegalArgumentException("Cannot use file format '" + identifier
                        + "': only 'parquet' is supported (ORC and Avro data files are not)");
        }
    }
}
