package dev.streamhouse.storage.deletionvectors;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes and reads deletion-vector index files {@code <table>/index/index-<uuid>-<n>} (docs/format.md §9.2):
 * a version byte (1), then per data file the frame of its vector ({@link DeletionVectorSerializer}),
 * back to back. Where each data file's vector lies is recorded in the file's {@link IndexFileMeta}
 * ({@code _DELETIONS_VECTORS_RANGES}: data file name, offset of the frame, recorded length, cardinality)
 * and committed in the index manifest with index type {@code DELETION_VECTORS}.
 *
 * <p><b>For writers.</b> A bucketed table keeps at most one DV index file per (partition, bucket): the
 * index manifest is keyed by (partition, bucket, index type), so a commit that changes a bucket's
 * vectors writes all of them into one new file with {@link #write} and commits it in place of the
 * bucket's previous one (a DELETE entry for the old file, an ADD for the new, as for hash indexes).
 * Leave out data files that were compacted away. {@link #writeRolling} rolls files at
 * {@code deletion-vector.index-file.target-size}; it is only for index manifests keyed by file name
 * (bucket-unaware append tables), as in Paimon 1.3.
 *
 * <p>Names use one random UUID per instance and a counter from 0. Files are never overwritten; a failed
 * write deletes its file. Errors name the file and the table: {@link IOException} for I/O failures,
 * {@link CorruptDeletionVectorException} for content that contradicts its meta (including the data file
 * concerned). Thread-safe.
 */
public final class DeletionVectorIndexFile {
    /** The version byte that starts every DV index file. */
    public static final byte VERSION = 1;

    private static final String PREFIX = "index-";

    private final FileIO fileIO;
    private final Path indexDir;
    private final String tableName;
    private final BitmapLayout layout;
    private final long targetSizeBytes;
    private final String uuid = UUID.randomUUID().toString();
    private final AtomicInteger nextFileNumber = new AtomicInteger();

    /**
     * @param tableRoot the table directory; files go to its {@code index/}
     * @param tableName how errors name the table
     * @param layout how new vectors are stored (reading accepts both)
     * @param targetSizeBytes where {@link #writeRolling} starts a new file
     */
    public DeletionVectorIndexFile(FileIO fileIO, Path tableRoot, String tableName, BitmapLayout layout,
            long targetSizeBytes) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.indexDir = new Path(Objects.requireNonNull(tableRoot, "tableRoot"), "index");
        this.tableName = Objects.requireNonNull(tableName, "tableName");
        this.layout = Objects.requireNonNull(layout, "layout");
        if (targetSizeBytes <= 0) {
            throw new IllegalArgumentException("Cannot write deletion-vector index files of table " + tableName
                    + ": target size " + targetSizeBytes + " is not positive");
        }
        this.targetSizeBytes = targetSizeBytes;
    }

    /**
     * The index files of a table, with the layout ({@code deletion-vectors.bitmap64}) and target size
     * ({@code deletion-vector.index-file.target-size}) of its options.
     */
    public static DeletionVectorIndexFile of(FileIO fileIO, Path tableRoot, String tableName, Options tableOptions) {
        return new DeletionVectorIndexFile(fileIO, tableRoot, tableName, BitmapLayout.of(tableOptions),
                tableOptions.get(MergeTreeOptions.DELETION_VECTOR_INDEX_FILE_TARGET_SIZE).bytes());
    }

    /** Where an index file lives: its external path if it has one, else {@code index/<name>}. */
    public Path path(IndexFileMeta meta) {
        return meta.externalPath() != null ? new Path(meta.externalPath()) : new Path(indexDir, meta.fileName());
    }

    /**
     * Writes the vectors of one (partition, bucket), keyed by data file name, into one new index file in
     * the map's iteration order, whatever its size, and returns its meta: type
     * {@code DELETION_VECTORS}, row count = number of vectors, one range per vector. An empty map gives
     * a file of the version byte alone (as Paimon writes it); to drop a bucket's last vectors, delete
     * its index file from the index manifest instead.
     *
     * @throws IllegalArgumentException for the 32-bit layout and a position of 2^31 or more
     */
    public IndexFileMeta write(Map<String, BitmapDeletionVector> vectors) throws IOException {
        return writeFile(vectors.entrySet().iterator(), Long.MAX_VALUE);
    }

    /**
     * Writes the vectors into as many new index files as needed, in the map's iteration order: a file
     * is closed after the vector that takes it past the target size. Returns their metas; none for an
     * empty map.
     */
    public List<IndexFileMeta> writeRolling(Map<String, BitmapDeletionVector> vectors) throws IOException {
        List<IndexFileMeta> written = new ArrayList<>();
        Iterator<Map.Entry<String, BitmapDeletionVector>> it = vectors.entrySet().iterator();
        try {
            while (it.hasNext()) {
                written.add(writeFile(it, targetSizeBytes));
            }
        } catch (IOException | RuntimeException e) {
            written.forEach(this::deleteQuietly);
            throw e;
        }
        return written;
    }

    private IndexFileMeta writeFile(Iterator<Map.Entry<String, BitmapDeletionVector>> vectors, long rollAtBytes)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(VERSION);
        List<DeletionVectorMeta> ranges = new ArrayList<>();
        while (vectors.hasNext() && bytes.size() <= rollAtBytes) {
            Map.Entry<String, BitmapDeletionVector> e = vectors.next();
            String dataFile = Objects.requireNonNull(e.getKey(), "data file name");
            BitmapDeletionVector vector = Objects.requireNonNull(e.getValue(), "deletion vector of " + dataFile);
            byte[] frame = DeletionVectorSerializer.serialize(vector, layout);
            if ((long) bytes.size() + frame.length > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("Cannot write the deletion vectors of table " + tableName
                        + ": one index file would exceed 2 GiB, beyond what its int offsets address");
            }
            ranges.add(new DeletionVectorMeta(dataFile, bytes.size(),
                    layout.recordedLength(frame.length - DeletionVectorSerializer.FRAME_OVERHEAD),
                    vector.cardinality()));
            bytes.write(frame);
        }
        String name = PREFIX + uuid + "-" + nextFileNumber.getAndIncrement();
        Path path = new Path(indexDir, name);
        try (PositionOutputStream out = fileIO.newOutputStream(path, false)) {
            bytes.writeTo(out);
        } catch (IOException | RuntimeException e) {
            fileIO.deleteQuietly(path);
            throw new IOException("Cannot write deletion-vector index file " + path + " of table " + tableName + ": "
                    + e.getMessage(), e);
        }
        return new IndexFileMeta(IndexFileMeta.DELETION_VECTORS_INDEX, name, bytes.size(), ranges.size(), ranges, null);
    }

    /**
     * Every vector of an index file, by data file name, in the order of its ranges. Checks the file's
     * size, its version byte, and each vector's CRC32, recorded length and cardinality.
     */
    public Map<String, BitmapDeletionVector> read(IndexFileMeta meta) throws IOException {
        Path path = path(meta);
        if (!IndexFileMeta.DELETION_VECTORS_INDEX.equals(meta.indexType())) {
            throw corrupt(path, null, "its index type is " + meta.indexType() + ", not "
                    + IndexFileMeta.DELETION_VECTORS_INDEX, null);
        }
        if (meta.deletionVectorRanges() == null) {
            throw corrupt(path, null, "its index manifest entry lists no deletion-vector ranges", null);
        }
        byte[] bytes;
        try {
            bytes = fileIO.readAllBytes(path);
        } catch (IOException e) {
            throw new IOException("Cannot read deletion-vector index file " + path + " of table " + tableName + ": "
                    + e.getMessage(), e);
        }
        if (bytes.length != meta.fileSize()) {
            throw corrupt(path, null, "it has " + bytes.length + " bytes, but its index manifest entry records "
                    + meta.fileSize(), null);
        }
        if (bytes.length == 0 || bytes[0] != VERSION) {
            throw corrupt(path, null, "its version byte is " + (bytes.length == 0 ? "missing" : bytes[0])
                    + "; this reader knows version " + VERSION, null);
        }
        Map<String, BitmapDeletionVector> vectors = new LinkedHashMap<>();
        for (DeletionVectorMeta range : meta.deletionVectorRanges()) {
            DeletionVectorSerializer.Frame frame;
            try {
                frame = DeletionVectorSerializer.read(bytes, range.offset(), bytes.length);
            } catch (IllegalArgumentException e) {
                throw corrupt(path, range.dataFileName(), "the vector at offset " + range.offset() + " is unusable: "
                        + e.getMessage(), e);
            }
            int expected = frame.layout().recordedLength(frame.blobSize());
            if (range.length() != expected) {
                throw corrupt(path, range.dataFileName(), "its range records length " + range.length() + ", but the "
                        + frame.layout() + " vector stored at offset " + range.offset() + " has length " + expected, null);
            }
            if (range.cardinality() != null && range.cardinality() != frame.vector().cardinality()) {
                throw corrupt(path, range.dataFileName(), "its range records " + range.cardinality()
                        + " deleted rows, but the stored vector has " + frame.vector().cardinality(), null);
            }
            if (vectors.put(range.dataFileName(), frame.vector()) != null) {
                throw corrupt(path, range.dataFileName(), "the data file has two ranges", null);
            }
        }
        return vectors;
    }

    /** Deletes an index file, best effort (cleanup of files that never got committed). */
    public void deleteQuietly(IndexFileMeta meta) {
        fileIO.deleteQuietly(path(meta));
    }

    private CorruptDeletionVectorException corrupt(Path path, String dataFile, String why, Throwable cause) {
        String what = dataFile == null ? "deletion-vector index file " + path
                : "the deletion vector of data file " + dataFile + " from index file " + path;
        return new CorruptDeletionVectorException(path, "Cannot read " + what + " of table " + tableName + ": " + why
                + "; the index file is corrupt", cause);
    }
}
