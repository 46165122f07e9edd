package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.types.RowType;
import org.apache.avro.file.CodecFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Writes and reads data/changelog manifests {@code manifest/manifest-<uuid>-<n>} (docs/format.md §5.4).
 *
 * <p>{@link #write} rolls to a new file once a file reaches the target size and describes each file
 * by a {@link ManifestFileMeta} with exact size, add/delete counts, full partition statistics,
 * bucket/level ranges and the highest schema id of its entries. Names use one random UUID per
 * instance and a counter from 0. Not thread-safe (the counter); reading is safe from any thread.
 *
 * <p>Errors: see {@link AvroFileReader}. A failed {@link #write} deletes the files it created and
 * rethrows; nothing else is ever deleted except through {@link #delete}.
 */
public final class ManifestFile {
    private static final String PREFIX = "manifest-";

    private final FileIO fileIO;
    private final Path manifestDir;
    private final RowType partitionType;
    private final CodecFactory codec;
    private final long targetFileSizeBytes;
    private final ManifestCache cache;
    private final String uuid = UUID.randomUUID().toString();
    private int nextFileNumber;

    /**
     * @param manifestDir the table's {@code manifest/} directory
     * @param partitionType the table's partition columns, for {@code _PARTITION_STATS}
     * @param compression {@code manifest.compression}, see {@link AvroSupport#codec}
     * @param zstdLevel {@code file.compression.zstd-level}
     * @param targetFileSizeBytes {@code manifest.target-file-size}
     */
    public ManifestFile(FileIO fileIO, Path manifestDir, RowType partitionType, String compression, int zstdLevel,
            long targetFileSizeBytes) {
        this(fileIO, manifestDir, partitionType, compression, zstdLevel, targetFileSizeBytes, ManifestCache.NONE);
    }

    /** @param cache where {@link #read} finds and keeps decoded entries */
    public ManifestFile(FileIO fileIO, Path manifestDir, RowType partitionType, String compression, int zstdLevel,
            long targetFileSizeBytes, ManifestCache cache) {
        if (targetFileSizeBytes <= 0) {
            throw new IllegalArgumentException("Cannot write manifests: target file size must be positive, got "
                    + targetFileSizeBytes);
        }
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.manifestDir = Objects.requireNonNull(manifestDir, "manifestDir");
        this.partitionType = Objects.requireNonNull(partitionType, "partitionType");
        this.codec = AvroSupport.codec(compression, zstdLevel);
        this.targetFileSizeBytes = targetFileSizeBytes;
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    public RowType partitionType() {
        return partitionType;
    }

    public long targetFileSizeBytes() {
        return targetFileSizeBytes;
    }

    public Path path(String fileName) {
        return new Path(manifestDir, fileName);
    }

    private Path tableRoot() {
        Path parent = manifestDir.parent();
        return parent == null ? manifestDir : parent;
    }

    /**
     * Writes {@code entries} in order into one or more new manifest files.
     *
     * @return one meta per file written, in order; empty (and no file) for no entries
     * @throws IllegalArgumentException if an entry's partition does not match the partition type
     */
    public List<ManifestFileMeta> write(List<ManifestEntry> entries) throws IOException {
        List<ManifestFileMeta> written = new ArrayList<>();
        RollingManifest current = null;
        try {
            for (ManifestEntry entry : entries) {
                if (current == null) {
                    current = new RollingManifest(newWriter());
                }
                current.add(entry);
                if (current.writer.bytesWritten() >= targetFileSizeBytes) {
                    written.add(current.finish());
                    current = null;
                }
            }
            if (current != null) {
                written.add(current.finish());
                current = null;
            }
            return written;
        } catch (IOException | RuntimeException e) {
            Path failed = current == null ? null : current.writer.path();
            if (current != null) {
                current.writer.abort();
            }
            for (ManifestFileMeta meta : written) {
                fileIO.deleteQuietly(path(meta.fileName()));
            }
            if (e instanceof IllegalArgumentException) {
                throw new IllegalArgumentException("Cannot write manifest file " + failed + " of table " + tableRoot()
                        + ": " + e.getMessage(), e);
            }
            throw e;
        }
    }

    private AvroFileWriter<ManifestEntry> newWriter() throws IOException {
        String name = PREFIX + uuid + "-" + nextFileNumber++;
        int blockSize = (int) Math.min(AvroFileWriter.DEFAULT_BLOCK_SIZE, Math.max(1, targetFileSizeBytes / 4));
        return new AvroFileWriter<>(fileIO, path(name), ManifestSchemas.MANIFEST_ENTRY, codec,
                new ManifestEntryCodec(), blockSize);
    }

    /**
     * Reads all entries of a manifest (from the {@link ManifestCache} when it holds them); the list is
     * unmodifiable.
     *
     * @param fileSizeOrNull the size recorded in the manifest list; if given, the file must have it
     */
    public List<ManifestEntry> read(String fileName, Long fileSizeOrNull) throws IOException {
        Path path = path(fileName);
        return cache.entries(path.toString(), fileSizeOrNull, () -> AvroFileReader.readAll(fileIO, path,
                fileSizeOrNull, "manifest file", tableRoot(), ManifestSchemas.MANIFEST_ENTRY, ManifestEntryCodec::read));
    }

    /**
     * The entries of a manifest whose partition and bucket {@code filter} wants, in file order: from the
     * {@link ManifestCache} when it holds or keeps the file; else decoding only the wanted entries (each
     * other entry costs its partition and bucket) of the blocks that may hold them, by the file's
     * {@link ManifestBlockIndex} when the cache has one (and building it for the cache when not), and
     * then, when the file's size is known, reading only those blocks' bytes and the file's header.
     */
    public List<ManifestEntry> read(String fileName, Long fileSizeOrNull, EntryFilter filter) throws IOException {
        if (cache.keeps(fileSizeOrNull)) {
            List<ManifestEntry> out = new ArrayList<>();
            for (ManifestEntry e : read(fileName, fileSizeOrNull)) {
                if (filter.matches(e.partition(), e.bucket())) {
                    out.add(e);
                }
            }
            return out;
        }
        Path path = path(fileName);
        ManifestBlockIndex index = cache.blockIndex(path.toString());
        if (index != null) {
            List<ManifestBlockIndex.Block> blocks = index.blocksFor(filter);
            if (blocks.isEmpty()) {
                return List.of();
            }
            if (fileSizeOrNull != null) {
                long[] ranges = index.byteRanges(blocks, fileSizeOrNull);
                long wantedBytes = 0;
                for (int i = 0; i < ranges.length; i += 2) {
                    wantedBytes += ranges[i + 1] - ranges[i];
                }
                // Ranges pay off for a few blocks; most of the file is cheaper read in one go.
                if (wantedBytes < fileSizeOrNull / 2) {
                    return readRanges(path, filter, index.headerLength(), ranges);
                }
            }
            long[] positions = blocks.stream().mapToLong(ManifestBlockIndex.Block::position).toArray();
            return readBlocks(path, fileSizeOrNull, filter, null, positions);
        }
        ManifestBlockIndex.Builder builder = cache.keepsBlockIndexes() ? new ManifestBlockIndex.Builder(partitionType)
                : null;
        List<ManifestEntry> out = readBlocks(path, fileSizeOrNull, filter, builder, null);
        if (builder != null) {
            cache.keepBlockIndex(path.toString(), builder.build());
        }
        return out;
    }

    /**
     * The wanted entries of the blocks at {@code positions} (all when null), each tested before its file
     * is decoded; every entry read is also added to {@code index} when given.
     */
    private List<ManifestEntry> readBlocks(Path path, Long fileSizeOrNull, EntryFilter filter,
            ManifestBlockIndex.Builder index, long[] positions) throws IOException {
        // Every entry passes the gate: a record without _FILE is refused by the codec as corrupt.
        return AvroFileReader.readBlocks(fileIO, path, fileSizeOrNull, "manifest file", tableRoot(),
                ManifestSchemas.MANIFEST_ENTRY, ManifestEntryCodec::read, gate(filter, index), positions,
                index == null ? p -> { } : index::startBlock);
    }

    /** The wanted entries of the blocks in the byte {@code ranges} of the file, which alone are read. */
    private List<ManifestEntry> readRanges(Path path, EntryFilter filter, long headerLength, long[] ranges)
            throws IOException {
        return AvroFileReader.readRanges(fileIO, path, "manifest file", tableRoot(), ManifestSchemas.MANIFEST_ENTRY,
                ManifestEntryCodec::read, gate(filter, null), headerLength, ranges);
    }

    /** Decodes an entry only when {@code filter} wants its partition and bucket (adding each to {@code index}). */
    private static GatedRecordReader gate(EntryFilter filter, ManifestBlockIndex.Builder index) {
        return new GatedRecordReader("_FILE", r -> {
            BinaryRow partition = SimpleStatsCodec.row(AvroSupport.requireBytes(r, "_PARTITION"), "_PARTITION");
            int bucket = AvroSupport.requireInt(r, "_BUCKET");
            if (index != null) {
                index.add(partition, bucket);
            }
            return filter.matches(partition, bucket);
        });
    }

    /** Deletes a manifest file, best effort (for cleaning up after a failed commit). */
    public void delete(String fileName) {
        fileIO.deleteQuietly(path(fileName));
    }

    /** One file being written plus the running values of its manifest-list record. */
    private final class RollingManifest {
        final AvroFileWriter<ManifestEntry> writer;
        final PartitionStatsCollector partitionStats = new PartitionStatsCollector(partitionType);
        long added;
        long deleted;
        long schemaId = Long.MIN_VALUE;
        int minBucket = Integer.MAX_VALUE;
        int maxBucket = Integer.MIN_VALUE;
        int minLevel = Integer.MAX_VALUE;
        int maxLevel = Integer.MIN_VALUE;

        RollingManifest(AvroFileWriter<ManifestEntry> writer) {
            this.writer = writer;
        }

        void add(ManifestEntry entry) throws IOException {
            partitionStats.add(entry.partition());
            writer.append(entry);
            if (entry.kind() == FileKind.ADD) {
                added++;
            } else {
                deleted++;
            }
            schemaId = Math.max(schemaId, entry.file().schemaId());
            minBucket = Math.min(minBucket, entry.bucket());
            maxBucket = Math.max(maxBucket, entry.bucket());
            minLevel = Math.min(minLevel, entry.file().level());
            maxLevel = Math.max(maxLevel, entry.file().level());
        }

        ManifestFileMeta finish() throws IOException {
            long size = writer.finish();
            return new ManifestFileMeta(writer.path().name(), size, added, deleted, partitionStats.result(), schemaId,
                    minBucket, maxBucket, minLevel, maxLevel);
        }
    }
}
