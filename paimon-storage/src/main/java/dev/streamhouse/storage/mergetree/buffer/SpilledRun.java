package dev.streamhouse.storage.mergetree.buffer;

import java.nio.file.Path;

/** A sorted run of records spilled to a local file: its path, record count and size on disk. */
record SpilledRun(Path path, long records, long fileBytes) {}
