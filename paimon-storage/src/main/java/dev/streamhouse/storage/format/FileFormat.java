package dev.streamhouse.storage.format;

import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.types.RowType;

/** A data file format (Parquet): writer and reader factories. */
public interface FileFormat {

    /** Lower-case identifier, also the file extension: {@code parquet}. */
    String identifier();

    /**
     * Writers of rows of {@code rowType}. {@code options} are the table options (compression, zstd
     * level, block size, {@code parquet.*} pass-through).
     */
    FormatWriterFactory writerFactory(RowType rowType, Options options);

    /**
     * Readers producing rows of {@code readType} (a projection of some file schema, by name).
     * {@code filter}, if not null, refers to positions in {@code readType}; it is only used to skip
     * row groups that cannot match. Rows are returned unfiltered otherwise.
     */
    FormatReaderFactory readerFactory(RowType readType, Predicate filter);
}
