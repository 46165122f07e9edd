package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.NewerPaimonFeatures;
import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import org.apache.avro.file.CodecFactory;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Writes and reads manifest lists {@code manifest/manifest-list-<uuid>-<n>} (docs/format.md §5.3): the
 * manifests that make up a snapshot's base, delta or changelog. An empty list is a valid file.
 * Names use one random UUID per instance and a counter from 0. Not thread-safe for writing.
 *
 * <p>Errors: see {@link AvroFileReader}. A failed {@link #write} deletes its partial file. Records read
 * with fields of a newer Paimon ({@link ManifestFileMeta#newerFields()}) are never written: that would
 * drop them.
 */
public final class ManifestList {
    private static final String PREFIX = "manifest-list-";

    private final FileIO fileIO;
    private final Path manifestDir;
    private final CodecFactory codec;
    private final String uuid = UUID.randomUUID().toString();
    private int nextFileNumber;

    public ManifestList(FileIO fileIO, Path manifestDir, String compression, int zstdLevel) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.manifestDir = Objects.requireNonNull(manifestDir, "manifestDir");
        this.codec = AvroSupport.codec(compression, zstdLevel);
    }

    public Path path(String fileName) {
        return new Path(manifestDir, fileName);
    }

    /** Writes one new manifest list holding {@code manifests} in order (possibly none). */
    public WrittenManifestList write(List<ManifestFileMeta> manifests) throws IOException {
        for (ManifestFileMeta m : manifests) {
            if (!m.newerFields().isEmpty()) {
                throw new UnsupportedTableFeatureException("Cannot write manifest " + m.fileName() + " into a manifest "
                        + "list: it was listed by a newer Paimon with the fields " + NewerPaimonFeatures.describe(
                        m.newerFields(), NewerPaimonFeatures.MANIFEST_LIST_FIELDS) + ", which this store would drop");
            }
        }
        String name = PREFIX + uuid + "-" + nextFileNumber++;
        AvroFileWriter<ManifestFileMeta> writer = new AvroFileWriter<>(fileIO, path(name), ManifestSchemas.MANIFEST_LIST,
                codec, new ManifestFileMetaCodec(), AvroFileWriter.DEFAULT_BLOCK_SIZE);
        try {
            for (ManifestFileMeta meta : manifests) {
                writer.append(meta);
            }
            return new WrittenManifestList(name, writer.finish());
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    /**
     * Reads a manifest list.
     *
     * @param fileSizeOrNull the size recorded in the snapshot; if given, the file must have it
     */
    public List<ManifestFileMeta> read(String fileName, Long fileSizeOrNull) throws IOException {
        Path parent = manifestDir.parent();
        return AvroFileReader.readAll(fileIO, path(fileName), fileSizeOrNull, "manifest list",
                parent == null ? manifestDir : parent, ManifestSchemas.MANIFEST_LIST,
                NewerPaimonFeatures.MANIFEST_LIST_FIELDS, ManifestFileMetaCodec::read);
    }

    /** Deletes a manifest list, best effort (for cleaning up after a failed commit). */
    public void delete(String fileName) {
        fileIO.deleteQuietly(path(fileName));
    }
}
