package dev.streamhouse.storage.index;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.FileKind;

/** One record of an index manifest (docs/format.md §5.6). */
public record IndexManifestEntry(FileKind kind, BinaryRow partition, int bucket, IndexFileMeta indexFile) {}
