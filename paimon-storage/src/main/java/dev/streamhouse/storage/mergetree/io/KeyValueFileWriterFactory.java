package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.format.FileFormat;
import dev.streamhouse.storage.format.FormatWriterFactory;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.stats.FileStatsBuilder;
import dev.streamhouse.storage.stats.StatsMode;

/**
 * Creates writers of primary-key data files of one (partition, bucket) in the default layout (docs/format.md
 * §8.2: {@code _KEY_*}, {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, all table columns).
 *
 * <p>Statistics: {@code _KEY_STATS} cover the key columns with {@code truncate(128)} and never a
 * column list; {@code _VALUE_STATS} cover all table columns with the table's stats options
 * ({@code metadata.stats-mode}, per-column modes, dense store → {@code _VALUE_STATS_COLS}).
 *
 * <p>Thread-safe for creating writers; each writer is single-threaded.
 */
public final class KeyValueFileWriterFactory {
    /** Key statistics keep this many code points of strings (Paimon collects them with truncate(128)). */
    static final int KEY_STATS_TRUNCATE_LENGTH = 128;

    private final FileIO fileIO;
    private final KeyValueLayout layout;
    private final FormatWriterFactory formatWriterFactory;
    private final DataFilePathFactory pathFactory;
    private final long schemaId;
    private final long targetFileSizeBytes;
    private final FileStatsBuilder keyStatsBuilder;
    private final FileStatsBuilder valueStatsBuilder;

    /**
     * @param tableOptions the table options of schema {@code schemaId}: format settings and stats modes
     * @param targetFileSizeBytes files roll once they reach about this size
     */
    public KeyValueFileWriterFactory(FileIO fileIO, KeyValueLayout layout, FileFormat format, Options tableOptions,
            DataFilePathFactory pathFactory, long schemaId, long targetFileSizeBytes) {
        if (targetFileSizeBytes <= 0) {
            throw new IllegalArgumentException("Cannot write data files to " + pathFactory.bucketDir()
                    + ": the target file size must be positive, got " + targetFileSizeBytes);
        }
        this.fileIO = fileIO;
        this.layout = layout;
        this.formatWriterFactory = format.writerFactory(layout.fileType(), tableOptions);
        this.pathFactory = pathFactory;
        this.schemaId = schemaId;
        this.targetFileSizeBytes = targetFileSizeBytes;
        StatsMode[] keyModes = new StatsMode[layout.keyArity()];
        java.util.Arrays.fill(keyModes, StatsMode.truncate(KEY_STATS_TRUNCATE_LENGTH));
        this.keyStatsBuilder = new FileStatsBuilder(layout.keyType(), keyModes, false);
        this.valueStatsBuilder = FileStatsBuilder.fromOptions(layout.valueType(), tableOptions);
    }

    public KeyValueLayout layout() {
        return layout;
    }

    /**
     * A writer of files on {@code level} whose metadata records {@code source} ({@code _FILE_SOURCE}):
     * APPEND for flushed input, COMPACT for compaction output.
     */
    public RollingKeyValueFileWriter newRollingWriter(int level, FileSource source) {
        if (level < 0) {
            throw new IllegalArgumentException("Cannot write data files to " + pathFactory.bucketDir()
                    + ": level must not be negative, got " + level);
        }
        return new RollingKeyValueFileWriter(this, level, source, false);
    }

    /**
     * A writer of changelog files ({@code changelog-<uuid>-<n>}, docs/format.md §10.2) on {@code level} with
     * file source APPEND: the data-file layout and statistics, but records in non-decreasing key order
     * with possibly several versions per key (see {@link RollingKeyValueFileWriter}).
     */
    public RollingKeyValueFileWriter newRollingChangelogWriter(int level) {
        if (level < 0) {
            throw new IllegalArgumentException("Cannot write changelog files to " + pathFactory.bucketDir()
                    + ": level must not be negative, got " + level);
        }
        return new RollingKeyValueFileWriter(this, level, FileSource.APPEND, true);
    }

    FileIO fileIO() {
        return fileIO;
    }

    FormatWriterFactory formatWriterFactory() {
        return formatWriterFactory;
    }

    DataFilePathFactory pathFactory() {
        return pathFactory;
    }

    long schemaId() {
        return schemaId;
    }

    long targetFileSizeBytes() {
        return targetFileSizeBytes;
    }

    FileStatsBuilder keyStatsBuilder() {
        return keyStatsBuilder;
    }

    FileStatsBuilder valueStatsBuilder() {
        return valueStatsBuilder;
    }
}
