package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.tag.TagManager;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Which tag a batch read reads: {@code scan.tag-name}, or {@code scan.version} when it names a tag
 * (Paimon looks for a tag of that name first, then for a snapshot of that id). The tagged snapshot is
 * read from the tag file, so a tag still reads after its snapshot file expired.
 */
final class TagReads {
    private TagReads() {}

    /** What a read's options select: a tag name, a snapshot id, or neither. */
    record Version(String tagName, Long snapshotId) {}

    /**
     * @throws IllegalArgumentException if {@code scan.version} is neither a tag nor a snapshot id
     */
    static Version resolve(FileIO fileIO, Path tableRoot, Options options, String tableName) {
        String tag = options.get(ScanOptions.SCAN_TAG_NAME);
        String version = options.get(ScanOptions.SCAN_VERSION);
        if (version == null || version.isBlank()) {
            return new Version(tag, null);
        }
        String v = version.trim();
        try {
            if (new TagManager(fileIO, tableRoot).exists(v)) {
                return new Version(v, null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the tags of table " + tableName, e);
        }
        try {
            return new Version(null, Long.parseLong(v));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Cannot read table " + tableName + " with option '"
                    + ScanOptions.SCAN_VERSION.key() + "' = '" + version + "': there is no tag of that name and it is "
                    + "not a snapshot id; the $tags system table lists the tags");
        }
    }

    /** The snapshot of tag {@code name}. */
    static Snapshot taggedSnapshot(FileIO fileIO, Path tableRoot, String name, String tableName) {
        try {
            return new TagManager(fileIO, tableRoot).tag(name).orElseThrow(() -> new IllegalArgumentException(
                    "Cannot read tag '" + name + "' of table " + tableName + ": it does not exist; the $tags system "
                            + "table lists the tags (option '" + ScanOptions.SCAN_TAG_NAME.key() + "')"))
                    .snapshot();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read tag '" + name + "' of table " + tableName, e);
        }
    }

    /** The refusal of a streaming read from a tag (Paimon 1.3.1: "Cannot scan from tag in streaming mode"). */
    static UnsupportedOperationException streamingRefusal(String tag, String tableName) {
        return new UnsupportedOperationException("Cannot stream-read table " + tableName + " from tag '" + tag
                + "' (option '" + ScanOptions.SCAN_TAG_NAME.key() + "' or '" + ScanOptions.SCAN_VERSION.key()
                + "'): Apache Paimon 1.3 cannot scan from a tag in streaming mode either; read it in batch mode, "
                + "or stream from its snapshot with 'scan.snapshot-id'");
    }
}
