package dev.streamhouse.storage.lookup;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

/**
 * {@link LookupStores} in RocksDB (Flink's own build, {@code frocksdbjni}), one database per store in
 * a subdirectory of the cache's directory. The stores share one LRU block cache (with bloom filters
 * and index blocks in it, so a probe for a missing key is answered from memory); write-ahead logs are
 * off, as a cache is rebuilt from the table after a crash. Memory: the block cache gets three quarters
 * of the budget; each store has up to four write buffers of a sixteenth (at most 64 MiB each), so a
 * load is not stalled while one flushes.
 *
 * <p>A store opens in bulk-load mode: no automatic compaction and no write stall on the number of
 * level-0 files, so the load only appends sorted files. {@link #finishLoad} then compacts each store
 * into one sorted run (a lookup probes one file's bloom filter and block instead of every flushed
 * file's) and switches automatic compaction on for the incremental changes that follow.
 */
final class RocksDbStores implements LookupStores {
    static {
        RocksDB.loadLibrary();
    }

    /** Level-0 files that start a compaction, slow down writes and stop them, once a store serves lookups. */
    private static final int L0_COMPACTION_TRIGGER = 4;
    private static final int L0_SLOWDOWN_TRIGGER = 40;
    private static final int L0_STOP_TRIGGER = 60;
    /** A level-0 file count never reached: a bulk load neither compacts nor stalls. */
    private static final int NEVER = 1 << 30;

    private final Path directory;
    private final LRUCache blockCache;
    private final long writeBufferBytes;
    private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
    private final ReadOptions readOptions = new ReadOptions();
    private final List<RocksDbStore> stores = new ArrayList<>();

    RocksDbStores(Path directory, long memoryBytes) {
        this.directory = directory;
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the lookup cache directory " + directory, e);
        }
        long memory = Math.max(memoryBytes, 8L << 20);
        this.blockCache = new LRUCache(memory * 3 / 4);
        this.writeBufferBytes = Math.max(2L << 20, Math.min(64L << 20, memory / 16));
    }

    @Override
    public synchronized KeyValueStore open(String name, boolean ordered, long expectedEntries) {
        Path dir = directory.resolve(name);
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(blockCache)
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true)
                .setFilterPolicy(new BloomFilter(10, false))
                .setBlockSize(16 * 1024);
        Options options = new Options()
                .setCreateIfMissing(true)
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setWriteBufferSize(writeBufferBytes)
                .setMaxWriteBufferNumber(4)
                .setDisableAutoCompactions(true)
                .setLevel0FileNumCompactionTrigger(NEVER)
                .setLevel0SlowdownWritesTrigger(NEVER)
                .setLevel0StopWritesTrigger(NEVER)
                .setSoftPendingCompactionBytesLimit(0)
                .setHardPendingCompactionBytesLimit(0)
                .setMaxBackgroundJobs(2)
                .setMaxOpenFiles(-1);
        try {
            RocksDbStore store = new RocksDbStore(RocksDB.open(options, dir.toString()), options, dir);
            stores.add(store);
            return store;
        } catch (RocksDBException e) {
            options.close();
            throw new UncheckedIOException("Cannot open the lookup cache store " + dir + ": " + e.getMessage(),
                    new IOException(e));
        }
    }

    @Override
    public synchronized void finishLoad() {
        for (RocksDbStore store : stores) {
            store.compactAndServe();
        }
    }

    /** The number of files in level 0 of {@code store}, one of this set's (what a lookup may have to probe). */
    long level0Files(KeyValueStore store) {
        try {
            return Long.parseLong(((RocksDbStore) store).db.getProperty("rocksdb.num-files-at-level0"));
        } catch (RocksDBException e) {
            throw new UncheckedIOException("Cannot read the level-0 file count of " + store, new IOException(e));
        }
    }

    @Override
    public long diskBytes() {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.map(Path::toFile).filter(File::isFile).mapToLong(File::length).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    @Override
    public synchronized void close() {
        for (RocksDbStore store : stores) {
            store.close();
        }
        stores.clear();
        writeOptions.close();
        readOptions.close();
        blockCache.close();
        deleteRecursively(directory);
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Best effort: the directory is under the task's temporary directory.
        }
    }

    private final class RocksDbStore implements KeyValueStore {
        private final RocksDB db;
        private final Options options;
        private final Path dir;
        private boolean closed;

        RocksDbStore(RocksDB db, Options options, Path dir) {
            this.db = db;
            this.options = options;
            this.dir = dir;
        }

        /** Compacts the bulk-loaded files into one sorted run and restores automatic compaction. */
        void compactAndServe() {
            try {
                db.compactRange();
                db.setOptions(db.getDefaultColumnFamily(), MutableColumnFamilyOptions.builder()
                        .setLevel0FileNumCompactionTrigger(L0_COMPACTION_TRIGGER)
                        .setLevel0SlowdownWritesTrigger(L0_SLOWDOWN_TRIGGER)
                        .setLevel0StopWritesTrigger(L0_STOP_TRIGGER)
                        .setSoftPendingCompactionBytesLimit(64L << 30)
                        .setHardPendingCompactionBytesLimit(256L << 30)
                        .setDisableAutoCompactions(false)
                        .build());
            } catch (RocksDBException e) {
                throw failure("compact", e);
            }
        }

        @Override
        public byte[] get(byte[] key) {
            try {
                return db.get(readOptions, key);
            } catch (RocksDBException e) {
                throw failure("read", e);
            }
        }

        @Override
        public void put(byte[] key, byte[] value) {
            try {
                db.put(writeOptions, key, value);
            } catch (RocksDBException e) {
                throw failure("write", e);
            }
        }

        @Override
        public void delete(byte[] key) {
            try {
                db.delete(writeOptions, key);
            } catch (RocksDBException e) {
                throw failure("write", e);
            }
        }

        @Override
        public void scanPrefix(byte[] prefix, BiConsumer<byte[], byte[]> entry) {
            try (RocksIterator it = db.newIterator(readOptions)) {
                for (it.seek(prefix); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    if (!KeyBytes.startsWith(key, prefix)) {
                        return;
                    }
                    entry.accept(key, it.value());
                }
            }
        }

        private UncheckedIOException failure(String what, RocksDBException e) {
            return new UncheckedIOException("Cannot " + what + " the lookup cache store " + dir + ": " + e.getMessage()
                    + " (is the local disk full? see 'lookup.cache-max-disk-size')", new IOException(e));
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                db.close();
                options.close();
            }
        }
    }
}
