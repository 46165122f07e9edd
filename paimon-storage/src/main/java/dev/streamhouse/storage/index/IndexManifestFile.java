package dev.streamhouse.storage.index;

import dev.streamhouse.storage.NewerPaimonFeatures;
import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.AvroFileReader;
import dev.streamhouse.storage.manifest.AvroFileWriter;
import dev.streamhouse.storage.manifest.AvroSupport;
import org.apache.avro.file.CodecFactory;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Writes and reads index manifests {@code manifest/index-manifest-<uuid>-<n>} (docs/format.md §5.6): the full
 * set of a snapshot's index files (hash indexes, deletion vectors). Names use one random UUID per
 * instance and a counter from 0. Not thread-safe for writing.
 *
 * <p>Entries read with fields of a newer Paimon ({@link IndexFileMeta#newerFields()}, e.g. global
 * indexes) are never written: that would drop them.
 *
 * <p>Errors: see {@link AvroFileReader}; a {@code _VERSION} other than 1 is a
 * {@link dev.streamhouse.storage.manifest.CorruptManifestException}. A failed write deletes its file.
 */
public final class IndexManifestFile {
    private static final String PREFIX = "index-manifest-";

    private final FileIO fileIO;
    private final Path manifestDir;
    private final CodecFactory codec;
    private final String uuid = UUID.randomUUID().toString();
    private int nextFileNumber;

    public IndexManifestFile(FileIO fileIO, Path manifestDir, String compression, int zstdLevel) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.manifestDir = Objects.requireNonNull(manifestDir, "manifestDir");
        this.codec = AvroSupport.codec(compression, zstdLevel);
    }

    public Path path(String fileName) {
        return new Path(manifestDir, fileName);
    }

    /** Writes {@code entries} into one new index manifest and returns its file name. */
    public String write(List<IndexManifestEntry> entries) throws IOException {
        for (IndexManifestEntry e : entries) {
            IndexFileMeta f = e.indexFile();
            if (!f.newerFields().isEmpty()) {
                throw new UnsupportedTableFeatureException("Cannot write index file " + f.fileName() + " (type '"
                        + f.indexType() + "') into an index manifest: it was listed by a newer Paimon with the fields "
                        + NewerPaimonFeatures.describe(f.newerFields(), NewerPaimonFeatures.INDEX_MANIFEST_FIELDS)
                        + ", which this store would drop");
            }
        }
        String name = PREFIX + uuid + "-" + nextFileNumber++;
        AvroFileWriter<IndexManifestEntry> writer = new AvroFileWriter<>(fileIO, path(name), IndexManifestSchema.SCHEMA,
                codec, new IndexManifestEntryCodec(), AvroFileWriter.DEFAULT_BLOCK_SIZE);
        try {
            for (IndexManifestEntry entry : entries) {
                writer.append(entry);
            }
            writer.finish();
            return name;
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    /** Reads all entries of an index manifest (snapshots record no size for it). */
    public List<IndexManifestEntry> read(String fileName) throws IOException {
        Path parent = manifestDir.parent();
        return AvroFileReader.readAll(fileIO, path(fileName), null, "index manifest",
                parent == null ? manifestDir : parent, IndexManifestSchema.SCHEMA,
                NewerPaimonFeatures.INDEX_MANIFEST_FIELDS, IndexManifestEntryCodec::read);
    }

    /** Deletes an index manifest, best effort. */
    public void delete(String fileName) {
        fileIO.deleteQuietly(path(fileName));
    }
}
