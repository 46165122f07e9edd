package dev.streamhouse.storage.bucket.dynamic;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.io.PartitionPathRenderer;
import dev.streamhouse.storage.index.IndexFileMeta;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes and reads dynamic-bucket hash index files {@code <table>/index/index-<uuid>-<n>} (docs/format.md
 * §9.1): the 32-bit key hashes of one (partition, bucket) as consecutive big-endian {@code int}s, no
 * header. Names use one random UUID per instance and a counter from 0.
 *
 * <p>Writes are sorted ascending and free of duplicates (the format leaves the order open; sorting
 * makes files reproducible). Files are never overwritten; a failed write deletes its file. Errors
 * name the file and the table: {@link IOException} for I/O failures,
 * {@link CorruptHashIndexException} for content that contradicts its {@link IndexFileMeta}.
 * Thread-safe.
 */
public final class HashIndexFile {
    private static final String PREFIX = "index-";

    private final FileIO fileIO;
    private final Path tableRoot;
    private final Path indexDir;
    private final String uuid = UUID.randomUUID().toString();
    private final AtomicInteger nextFileNumber = new AtomicInteger();
    /** Names partitions in errors; null: by their binary form. */
    private final PartitionPathRenderer partitions;

    /** Index files of the table at {@code tableRoot}, in its {@code index/} directory. */
    public HashIndexFile(FileIO fileIO, Path tableRoot) {
        this(fileIO, tableRoot, null);
    }

    /** As above, errors naming partitions as {@code partitions} renders them. */
    public HashIndexFile(FileIO fileIO, Path tableRoot, PartitionPathRenderer partitions) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.tableRoot = Objects.requireNonNull(tableRoot, "tableRoot");
        this.indexDir = new Path(tableRoot, "index");
        this.partitions = partitions;
    }

    /** Where an index file lives: its external path if it has one, else {@code index/<name>}. */
    public Path path(IndexFileMeta meta) {
        return meta.externalPath() != null ? new Path(meta.externalPath()) : new Path(indexDir, meta.fileName());
    }

    /**
     * Writes a new index file holding the distinct values of {@code hashes} (ascending) and returns
     * its meta: {@code (HASH, name, 4 × count, count, null, null)}.
     */
    public IndexFileMeta write(int[] hashes) throws IOException {
        int[] sorted = distinctSorted(hashes);
        ByteBuffer buf = ByteBuffer.allocate(sorted.length * Integer.BYTES);
        for (int h : sorted) {
            buf.putInt(h);
        }
        String name = PREFIX + uuid + "-" + nextFileNumber.getAndIncrement();
        Path path = new Path(indexDir, name);
        try (PositionOutputStream out = fileIO.newOutputStream(path, false)) {
            out.write(buf.array());
        } catch (IOException | RuntimeException e) {
            fileIO.deleteQuietly(path);
            throw new IOException("Cannot write hash index file " + path + " of table " + tableRoot + ": "
                    + e.getMessage(), e);
        }
        return new IndexFileMeta(IndexFileMeta.HASH_INDEX, name, (long) sorted.length * Integer.BYTES, sorted.length,
                null, null);
    }

    /**
     * The hashes of the index file of {@code partition} and {@code bucket}, as {@link #read(IndexFileMeta)};
     * a damaged file fails naming the partition and bucket too.
     */
    public int[] read(BinaryRow partition, int bucket, IndexFileMeta meta) throws IOException {
        try {
            return read(meta);
        } catch (CorruptHashIndexException e) {
            String where = partitions != null ? partitions.describe(partition, bucket)
                    : "partition " + partition + ", bucket " + bucket;
            throw new CorruptHashIndexException(e.file(), e.getMessage() + " (" + where + "). The file is damaged: "
                    + "restore it from a backup, or roll back the table to a snapshot that does not use it "
                    + "(CALL sys.rollback_to)", e);
        }
    }

    /** The hashes of an index file, in file order; checks the size and row count its meta records. */
    public int[] read(IndexFileMeta meta) throws IOException {
        Path path = path(meta);
        if (!IndexFileMeta.HASH_INDEX.equals(meta.indexType())) {
            throw new CorruptHashIndexException(path, "Cannot read " + path + " of table " + tableRoot
                    + " as a hash index: its index type is " + meta.indexType());
        }
        byte[] bytes;
        try {
            bytes = fileIO.readAllBytes(path);
        } catch (IOException e) {
            throw new IOException("Cannot read hash index file " + path + " of table " + tableRoot + ": "
                    + e.getMessage(), e);
        }
        if (bytes.length % Integer.BYTES != 0 || bytes.length != meta.fileSize()
                || bytes.length / Integer.BYTES != meta.rowCount()) {
            throw new CorruptHashIndexException(path, "Hash index file " + path + " of table " + tableRoot + " has "
                    + bytes.length + " bytes, but its index manifest entry records " + meta.fileSize() + " bytes and "
                    + meta.rowCount() + " hashes of 4 bytes each");
        }
        int[] hashes = new int[bytes.length / Integer.BYTES];
        ByteBuffer.wrap(bytes).asIntBuffer().get(hashes);
        return hashes;
    }

    /** Deletes an index file, best effort (cleanup of files that never got committed). */
    public void deleteQuietly(IndexFileMeta meta) {
        fileIO.deleteQuietly(path(meta));
    }

    static int[] distinctSorted(int[] hashes) {
        int[] sorted = hashes.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (n == 0 || sorted[i] != sorted[n - 1]) {
                sorted[n++] = sorted[i];
            }
        }
        return n == sorted.length ? sorted : Arrays.copyOf(sorted, n);
    }
}
