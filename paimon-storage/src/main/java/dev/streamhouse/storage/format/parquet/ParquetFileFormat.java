package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.format.FileFormat;
import dev.streamhouse.storage.format.FormatReaderFactory;
import dev.streamhouse.storage.format.FormatWriterFactory;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.types.RowType;

/**
 * The Parquet data file format, byte-compatible with the files Apache Paimon 1.3 writes (docs/format.md
 * §8.1): schema {@code paimon_schema} with field ids, zstd level 1 by default, 128 MiB row groups,
 * v1 pages, no key/value metadata. Writers report per-column statistics from the footer; readers
 * match columns by name, read missing columns as null and skip row groups by statistics.
 *
 * <p>Stateless and thread-safe; the factories it returns are serializable.
 */
public final class ParquetFileFormat implements FileFormat {
    public static final String IDENTIFIER = "parquet";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    /** @throws IllegalArgumentException on an unknown compression or malformed {@code parquet.*} option */
    @Override
    public FormatWriterFactory writerFactory(RowType rowType, Options options) {
        return new ParquetWriterFactory(rowType, ParquetWriteOptions.from(options));
    }

    @Override
    public FormatReaderFactory readerFactory(RowType readType, Predicate filter) {
        return new ParquetReaderFactory(readType, filter);
    }
}
