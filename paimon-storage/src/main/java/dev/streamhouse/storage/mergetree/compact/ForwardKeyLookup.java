package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link KeyLookup} that walks the files outside a compaction (sorted runs on levels above 0) forward:
 * keys must be asked in ascending order; each level is walked once, file by file, opening a file only
 * when an asked key falls inside its key range and reading it only as far as the keys asked. Not
 * thread-safe; close it to close the open files.
 */
public final class ForwardKeyLookup implements KeyLookup, AutoCloseable {
    private final List<LevelCursor> levels = new ArrayList<>();

    /**
     * @param files the outside files, on levels above 0; each level is one sorted run
     * @param keyComparator orders keys (and the files' min/max keys) of this bucket
     */
    public ForwardKeyLookup(List<DataFileMeta> files, Comparator<InternalRow> keyComparator,
            KeyValueFileReaderFactory readers, BinaryRow partition, int bucket) {
        Map<Integer, List<DataFileMeta>> byLevel = new TreeMap<>();
        for (DataFileMeta f : files) {
            if (f.level() == 0) {
                throw new IllegalArgumentException("Cannot look up keys in level-0 file " + f.fileName()
                        + ": only sorted runs above level 0 keep each key once");
            }
            byLevel.computeIfAbsent(f.level(), l -> new ArrayList<>()).add(f);
        }
        for (List<DataFileMeta> level : byLevel.values()) {
            level.sort((a, b) -> keyComparator.compare(a.minKey(), b.minKey()));
            levels.add(new LevelCursor(level, keyComparator, readers, partition, bucket));
        }
    }

    /** The newest version of {@code key}, which must not be smaller than any key asked before. */
    @Override
    public KeyValue lookup(InternalRow key) throws IOException {
        for (LevelCursor level : levels) {
            KeyValue found = level.lookup(key);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (LevelCursor level : levels) {
            try {
                level.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A forward-only walk over the keys of one level's files. */
    private static final class LevelCursor {
        private final List<DataFileMeta> files;
        private final Comparator<InternalRow> keyComparator;
        private final KeyValueFileReaderFactory readers;
        private final BinaryRow partition;
        private final int bucket;
        private int fileIndex;
        private RecordReader<KeyValue> reader;
        private RecordIterator<KeyValue> batch;
        private KeyValue current;

        LevelCursor(List<DataFileMeta> files, Comparator<InternalRow> keyComparator, KeyValueFileReaderFactory readers,
                BinaryRow partition, int bucket) {
            this.files = files;
            this.keyComparator = keyComparator;
            this.readers = readers;
            this.partition = partition;
            this.bucket = bucket;
        }

        KeyValue lookup(InternalRow key) throws IOException {
            while (fileIndex < files.size()) {
                DataFileMeta file = files.get(fileIndex);
                if (keyComparator.compare(key, file.maxKey()) > 0) {
                    closeFile();
                    fileIndex++;
                    continue;
                }
                if (keyComparator.compare(key, file.minKey()) < 0) {
                    return null;
                }
                if (reader == null) {
                    reader = readers.createReader(partition, bucket, file);
                    current = null;
                }
                while (current == null || keyComparator.compare(current.key(), key) < 0) {
                    if (!advance()) {
                        closeFile();
                        fileIndex++;
                        return null;
                    }
                }
                return keyComparator.compare(current.key(), key) == 0 ? current.setLevel(file.level()) : null;
            }
            return null;
        }

        private boolean advance() throws IOException {
            while (true) {
                if (batch != null) {
                    KeyValue next = batch.next();
                    if (next != null) {
                        current = next;
                        return true;
                    }
                    batch.releaseBatch();
                    batch = null;
                }
                batch = reader.readBatch();
                if (batch == null) {
                    return false;
                }
            }
        }

        private void closeFile() throws IOException {
            current = null;
            if (batch != null) {
                batch.releaseBatch();
                batch = null;
            }
            if (reader != null) {
                RecordReader<KeyValue> r = reader;
                reader = null;
                r.close();
            }
        }

        void close() throws IOException {
            closeFile();
        }
    }
}
