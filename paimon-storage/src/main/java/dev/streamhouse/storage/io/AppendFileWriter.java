package dev.streamhouse.storage.io;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.format.FormatWriter;
import dev.streamhouse.storage.format.FormatWriterFactory;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.stats.FileStatsBuilder;

import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the rows of one (partition, bucket) of an append table into data files that roll at the
 * target size. Files are only referenced by a snapshot after a commit; {@link #abort()} deletes every
 * file this writer created, so an aborted write leaves nothing behind.
 */
public final class AppendFileWriter {
    /** Rolling is checked every this many rows: cheap, and files overshoot the target only slightly. */
    private static final int ROLL_CHECK_INTERVAL = 1000;

    private final FileIO fileIO;
    private final FormatWriterFactory writerFactory;
    private final DataFilePathFactory pathFactory;
    private final long targetFileSize;
    private final FileStatsBuilder statsBuilder;
    private final long schemaId;
    private final FileSource fileSource;

    private final List<DataFileMeta> finished = new ArrayList<>();
    private final List<Path> created = new ArrayList<>();
    private FormatWriter current;
    private Path currentPath;
    private long currentRows;
    private long nextSequence;
    private long currentFirstSequence;

    /** A writer of new rows ({@code _FILE_SOURCE} APPEND). */
    public AppendFileWriter(FileIO fileIO, FormatWriterFactory writerFactory, DataFilePathFactory pathFactory,
            long targetFileSize, FileStatsBuilder statsBuilder, long schemaId, long firstSequenceNumber) {
        this(fileIO, writerFactory, pathFactory, targetFileSize, statsBuilder, schemaId, firstSequenceNumber,
                FileSource.APPEND);
    }

    /** @param fileSource what the files are: APPEND for new rows, COMPACT for rewritten ones */
    public AppendFileWriter(FileIO fileIO, FormatWriterFactory writerFactory, DataFilePathFactory pathFactory,
            long targetFileSize, FileStatsBuilder statsBuilder, long schemaId, long firstSequenceNumber,
            FileSource fileSource) {
        this.fileSource = fileSource;
        this.fileIO = fileIO;
        this.writerFactory = writerFactory;
        this.pathFactory = pathFactory;
        this.targetFileSize = targetFileSize;
        this.statsBuilder = statsBuilder;
        this.schemaId = schemaId;
        this.nextSequence = firstSequenceNumber;
    }

    public void write(InternalRow row) throws IOException {
        if (current == null) {
            open();
        }
        try {
            current.add(row);
        } catch (IOException e) {
            throw new IOException("Cannot write data file " + currentPath + ": " + e.getMessage(), e);
        }
        currentRows++;
        nextSequence++;
        if (currentRows % ROLL_CHECK_INTERVAL == 0 && current.estimatedLength() >= targetFileSize) {
            closeCurrent();
        }
    }

    private void open() throws IOException {
        currentPath = pathFactory.newDataFile();
        created.add(currentPath);
        current = writerFactory.create(fileIO.newOutputStream(currentPath, false));
        currentRows = 0;
        currentFirstSequence = nextSequence;
    }

    private void closeCurrent() throws IOException {
        FormatWriter w = current;
        current = null;
        w.close();
        long size = fileIO.size(currentPath);
        FileStatsBuilder.Result stats = statsBuilder.build(w.fieldStats());
        finished.add(DataFileMeta.forAppend(currentPath.name(), size, currentRows, stats.stats(),
                currentFirstSequence, currentFirstSequence + currentRows - 1, schemaId, creationTimeMillis(),
                fileSource, stats.columns()));
    }

    /** Local wall-clock time encoded as if UTC, as the format stores {@code _CREATION_TIME}. */
    static long creationTimeMillis() {
        return LocalDateTime.now().toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /** Finishes the open file and returns all files written since the last call. */
    public List<DataFileMeta> prepareCommit() throws IOException {
        if (current != null) {
            closeCurrent();
        }
        List<DataFileMeta> out = new ArrayList<>(finished);
        finished.clear();
        created.clear();
        return out;
    }

    /** Sequence number the next row gets. */
    public long nextSequenceNumber() {
        return nextSequence;
    }

    /** Deletes every file written since the last {@link #prepareCommit()}. */
    public void abort() {
        if (current != null) {
            try {
                current.close();
            } catch (IOException | RuntimeException ignored) {
                // the file is deleted below anyway
            }
            current = null;
        }
        for (Path p : created) {
            fileIO.deleteQuietly(p);
        }
        created.clear();
        finished.clear();
    }
}
