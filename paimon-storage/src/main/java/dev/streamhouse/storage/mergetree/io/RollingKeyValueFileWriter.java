package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.format.FieldStats;
import dev.streamhouse.storage.format.FormatWriter;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.stats.FileStatsBuilder;

import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes KeyValues of one (partition, bucket) into data files (or changelog files) of one level that
 * roll at the target size, and describes each file as a {@link DataFileMeta}.
 *
 * <p>Two modes, chosen by the factory method:
 *
 * <ul>
 *   <li><b>Data files</b> ({@code data-<uuid>-<n>}): keys arrive in strictly ascending order (docs/format.md
 *       §6.4), each key at most once per writer (a data file holds one version per key, and rolled
 *       files of one writer form one sorted run).
 *   <li><b>Changelog files</b> ({@code changelog-<uuid>-<n>}, docs/format.md §10.2, same layout and statistics):
 *       keys arrive in non-decreasing order and the versions of one key in strictly ascending
 *       sequence number, so a file may hold several records per key (e.g. -U and +U).
 * </ul>
 *
 * <p>A violation of the mode's order fails with {@link IllegalStateException} before anything is
 * written for that record. After a failed {@link #write} or {@link #close}, call {@link #abort()}.
 * Not thread-safe.
 */
public final class RollingKeyValueFileWriter {
    /** Rolling is checked every this many records: cheap, and files overshoot the target only slightly. */
    private static final int ROLL_CHECK_INTERVAL = 1000;

    private final KeyValueFileWriterFactory factory;
    private final int level;
    private final FileSource source;
    private final boolean changelog;
    /** "data file" or "changelog file", for messages. */
    private final String fileKind;
    private final KeyValueLayout layout;
    private final KeyComparator keyComparator;
    private final BinaryRowConverter keyConverter;
    private final KeyValueFileRow fileRow;

    private final List<DataFileMeta> finished = new ArrayList<>();
    private final List<Path> created = new ArrayList<>();
    private boolean closed;
    /** Set when a write or close failed: the files are incomplete, only abort() is allowed. */
    private boolean failed;
    /** Last key written by this writer, across rolled files; null before the first record. */
    private BinaryRow lastKey;
    private long lastSequence;

    private FormatWriter current;
    private Path currentPath;
    private BinaryRow currentMinKey;
    private long currentRows;
    private long currentDeletes;
    private long currentMinSequence;
    private long currentMaxSequence;

    RollingKeyValueFileWriter(KeyValueFileWriterFactory factory, int level, FileSource source, boolean changelog) {
        this.factory = factory;
        this.level = level;
        this.source = source;
        this.changelog = changelog;
        this.fileKind = changelog ? "changelog file" : "data file";
        this.layout = factory.layout();
        this.keyComparator = new KeyComparator(layout.keyType());
        this.keyConverter = new BinaryRowConverter(layout.keyType().fieldTypes());
        this.fileRow = new KeyValueFileRow(layout.keyArity(), layout.valueType().fieldCount());
    }

    /**
     * Appends one version. Data files: its key must be greater than every key written before.
     * Changelog files: its key must not be smaller than the previous one and, if equal, its sequence
     * number must be greater.
     */
    public void write(KeyValue kv) throws IOException {
        checkUsable("write to");
        BinaryRow key = keyConverter.toBinaryRow(kv.key());
        if (lastKey != null) {
            int c = keyComparator.compare(lastKey, key);
            if (changelog ? c > 0 || (c == 0 && kv.sequenceNumber() <= lastSequence) : c >= 0) {
                throw new IllegalStateException("Cannot write key " + kv.key() + " (sequence number "
                        + kv.sequenceNumber() + ") to " + fileKind + " "
                        + (currentPath != null ? currentPath : factory.pathFactory().bucketDir())
                        + (changelog
                                ? ": records must be written in ascending (key, sequence number) order, but the previous"
                                        + " record was key " + lastKey + " with sequence number " + lastSequence
                                : ": keys must be written in ascending order and at most once, but the previous key was "
                                        + lastKey)
                        + "; this is a bug in the caller (write buffer or compaction)");
            }
        }
        if (current == null) {
            open();
        }
        try {
            current.add(fileRow.replace(kv));
        } catch (IOException e) {
            failed = true;
            throw new IOException("Cannot write " + fileKind + " " + currentPath + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
        if (currentRows == 0) {
            currentMinKey = key;
            currentMinSequence = kv.sequenceNumber();
            currentMaxSequence = kv.sequenceNumber();
        } else {
            currentMinSequence = Math.min(currentMinSequence, kv.sequenceNumber());
            currentMaxSequence = Math.max(currentMaxSequence, kv.sequenceNumber());
        }
        lastKey = key;
        lastSequence = kv.sequenceNumber();
        currentRows++;
        if (kv.valueKind().isRetract()) {
            currentDeletes++;
        }
        if (currentRows % ROLL_CHECK_INTERVAL == 0 && current.estimatedLength() >= factory.targetFileSizeBytes()) {
            closeCurrent();
        }
    }

    private void checkUsable(String action) {
        if (failed || closed) {
            throw new IllegalStateException("Cannot " + action + " " + fileKind + "s in " + factory.pathFactory().bucketDir()
                    + ": the writer " + (failed ? "failed before; call abort()" : "is closed"));
        }
    }

    private void open() throws IOException {
        currentPath = changelog ? factory.pathFactory().newChangelogFile() : factory.pathFactory().newDataFile();
        created.add(currentPath);
        try {
            current = factory.formatWriterFactory().create(factory.fileIO().newOutputStream(currentPath, false));
        } catch (IOException e) {
            failed = true;
            throw new IOException("Cannot create " + fileKind + " " + currentPath + ": " + e.getMessage(), e);
        }
        currentRows = 0;
        currentDeletes = 0;
    }

    private void closeCurrent() throws IOException {
        FormatWriter w = current;
        current = null;
        long size;
        try {
            w.close();
            size = factory.fileIO().size(currentPath);
        } catch (IOException e) {
            failed = true;
            throw new IOException("Cannot finish " + fileKind + " " + currentPath + ": " + e.getMessage(), e);
        }
        FieldStats[] all = w.fieldStats();
        int keyArity = layout.keyArity();
        int valueOffset = layout.valueOffset();
        FieldStats[] keyStats = Arrays.copyOfRange(all, 0, keyArity);
        FieldStats[] valueStats = Arrays.copyOfRange(all, valueOffset, valueOffset + layout.valueType().fieldCount());
        FileStatsBuilder.Result values = factory.valueStatsBuilder().build(valueStats);
        finished.add(new DataFileMeta(currentPath.name(), size, currentRows, currentMinKey, lastKey,
                factory.keyStatsBuilder().build(keyStats).stats(), values.stats(), currentMinSequence,
                currentMaxSequence, factory.schemaId(), level, List.of(), creationTimeMillis(), currentDeletes,
                null, source, values.columns(), null, null, null));
    }

    /** Local wall-clock time encoded as if UTC, as the format stores {@code _CREATION_TIME}. */
    private static long creationTimeMillis() {
        return LocalDateTime.now().toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /**
     * Finishes the open file and returns the metadata of every file written, in key order (data files
     * together form a sorted run). Empty if nothing was written. Calling it again returns the same list; writing
     * afterwards fails.
     */
    public List<DataFileMeta> close() throws IOException {
        if (!closed) {
            checkUsable("close");
        }
        if (current != null) {
            closeCurrent();
        }
        closed = true;
        return new ArrayList<>(finished);
    }

    /**
     * Deletes every file this writer created, including finished ones whose metadata {@link #close()}
     * already returned (so only call it if those files will not be committed). Never throws.
     */
    public void abort() {
        closed = true;
        if (current != null) {
            try {
                current.close();
            } catch (IOException | RuntimeException ignored) {
                // the file is deleted below anyway
            }
            current = null;
        }
        for (Path p : created) {
            factory.fileIO().deleteQuietly(p);
        }
        created.clear();
        finished.clear();
    }

}
