package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.options.LookupOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.RowType;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * The local lookup files of data files, built on demand and kept for reuse. A data file's name identifies
 * immutable content, so a lookup file built for it stays valid; it is cached by the data file name and the
 * key and value types it was read as (a reader factory of a newer schema gets a file of its own).
 *
 * <p>Callers {@link #acquire} a {@link Lease} and close it when done; a file is in use while a lease on it
 * is open. Files not in use are deleted:
 * <ul>
 *   <li>least recently used first while the local files take more than the disk limit
 *       ({@code lookup.cache-max-disk-size}); files in use are never evicted, so the limit is exceeded
 *       while more than it is in use, and restored as leases are closed;
 *   <li>when unused for longer than the retention ({@code lookup.cache-file-retention}), checked whenever a
 *       lease is acquired or closed (no background thread);
 *   <li>when {@link #retainOnly} says their data file left the table.
 * </ul>
 *
 * <p>Thread-safe: several compaction threads may share one cache. A file is built once even if several
 * threads ask for it at once: the others wait for the first one's build, and share its failure. Builds of
 * different files run in parallel, outside the cache's lock.
 *
 * <p>All files live in a new directory under the parent directory given, deleted with everything in it by
 * {@link #close()}.
 */
public final class LookupFileCache implements Closeable {
    private static final String DIRECTORY_PREFIX = "lookup-files-";

    private final Path directory;
    private final LookupFileSettings settings;
    private final long maxDiskBytes;
    private final long retentionMillis;
    private final LongSupplier clockMillis;
    private final Object lock = new Object();
    /** Least recently used first: a lookup of the map moves the entry to the end. */
    private final LinkedHashMap<CacheKey, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long diskBytes;
    private long filesBuilt;
    private long nextLocalId;
    private boolean closed;

    /**
     * @param parentDirectory where to create the cache's own directory (created if missing)
     * @param maxDiskBytes the most bytes of local files to keep while not in use
     * @param fileRetention how long a file may stay unused before it is deleted
     */
    public LookupFileCache(Path parentDirectory, LookupFileSettings settings, long maxDiskBytes,
            Duration fileRetention) throws IOException {
        this(parentDirectory, settings, maxDiskBytes, fileRetention, System::currentTimeMillis);
    }

    /** As above, telling time by {@code clockMillis} (milliseconds, never going back). */
    public LookupFileCache(Path parentDirectory, LookupFileSettings settings, long maxDiskBytes,
            Duration fileRetention, LongSupplier clockMillis) throws IOException {
        if (maxDiskBytes < 0) {
            throw new IllegalArgumentException("Cannot limit lookup files to " + maxDiskBytes
                    + " bytes of disk: 'lookup.cache-max-disk-size' must not be negative");
        }
        if (fileRetention.isNegative()) {
            throw new IllegalArgumentException("Cannot keep unused lookup files for " + fileRetention
                    + ": 'lookup.cache-file-retention' must not be negative");
        }
        this.settings = settings;
        this.maxDiskBytes = maxDiskBytes;
        this.retentionMillis = saturatedMillis(fileRetention);
        this.clockMillis = clockMillis;
        Files.createDirectories(parentDirectory);
        this.directory = Files.createTempDirectory(parentDirectory, DIRECTORY_PREFIX);
    }

    /** A cache configured by the table options ({@code lookup.*}, {@code cache-page-size}). */
    public static LookupFileCache create(Path parentDirectory, Options options) throws IOException {
        return new LookupFileCache(parentDirectory, LookupFileSettings.from(options),
                options.get(LookupOptions.LOOKUP_CACHE_MAX_DISK_SIZE).bytes(),
                options.get(LookupOptions.LOOKUP_CACHE_FILE_RETENTION));
    }

    private static long saturatedMillis(Duration d) {
        try {
            return d.toMillis();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * The lookup file of {@code file}, built now (in this thread, or waited for if another thread is
     * building it) unless cached. Close the lease when done with the file.
     *
     * @param readers reads the data file; it must not apply deletion vectors (row positions count the rows
     *     read). The file is stored with {@code readers.valueReadType()} as its value rows.
     * @throws IOException naming the data file if the file cannot be built; nothing of it is kept, and a
     *     later call tries again
     * @throws IllegalStateException if the cache is closed
     */
    public Lease acquire(KeyValueFileReaderFactory readers, BinaryRow partition, int bucket, DataFileMeta file)
            throws IOException {
        CacheKey key = new CacheKey(file.fileName(), readers.layout().keyType(), readers.valueReadType());
        Entry entry;
        boolean build;
        synchronized (lock) {
            checkOpen();
            long now = clockMillis.getAsLong();
            expireUnused(now);
            entry = entries.get(key);
            build = entry == null;
            if (build) {
                entry = new Entry(key, directory.resolve(localName(file.fileName(), nextLocalId++)));
                entries.put(key, entry);
            }
            entry.users++;
            entry.lastUsedMillis = now;
        }
        if (build) {
            build(entry, readers, partition, bucket, file);
        } else {
            await(entry);
        }
        return new Lease(entry);
    }

    private void build(Entry entry, KeyValueFileReaderFactory readers, BinaryRow partition, int bucket,
            DataFileMeta file) throws IOException {
        LookupFile built;
        try {
            built = LookupFileLoader.load(readers, partition, bucket, file, entry.localPath, settings);
        } catch (IOException | RuntimeException | Error e) {
            synchronized (lock) {
                entries.remove(entry.key, entry);
            }
            entry.ready.completeExceptionally(e);
            throw e;
        }
        synchronized (lock) {
            if (!closed) {
                entry.file = built;
                diskBytes += built.diskBytes();
                filesBuilt++;
                evictOverLimit();
                entry.ready.complete(built);
                return;
            }
        }
        deleteQuietly(built, entry.localPath);
        IOException failure = new IOException("Cannot use the lookup file of data file " + file.fileName()
                + ": the lookup file cache was closed while it was built");
        entry.ready.completeExceptionally(failure);
        throw failure;
    }

    private void await(Entry entry) throws IOException {
        try {
            entry.ready.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            release(entry);
            InterruptedIOException failure = new InterruptedIOException("Cannot use the lookup file of data file "
                    + entry.key.dataFileName() + ": interrupted while another thread builds it");
            failure.initCause(e);
            throw failure;
        } catch (ExecutionException e) {
            // the builder removed the failed entry: there is nothing to release
            Throwable cause = e.getCause();
            throw new IOException("Cannot use the lookup file of data file " + entry.key.dataFileName()
                    + ": another thread failed to build it: " + cause.getMessage(), cause);
        }
    }

    /**
     * Forgets the files of data files not in {@code liveDataFileNames} (e.g. those compacted away or expired):
     * deleted now if not in use, else when their last lease is closed.
     */
    public void retainOnly(Set<String> liveDataFileNames) {
        synchronized (lock) {
            for (Iterator<Entry> it = entries.values().iterator(); it.hasNext();) {
                Entry entry = it.next();
                if (!liveDataFileNames.contains(entry.key.dataFileName())) {
                    if (entry.users == 0) {
                        it.remove();
                        delete(entry);
                    } else {
                        entry.dropWhenUnused = true;
                    }
                }
            }
        }
    }

    private void release(Entry entry) {
        synchronized (lock) {
            entry.users--;
            long now = clockMillis.getAsLong();
            entry.lastUsedMillis = now;
            if (entries.get(entry.key) == entry && entry.users == 0 && (entry.dropWhenUnused || closed)) {
                entries.remove(entry.key);
                delete(entry);
            }
            if (!closed) {
                expireUnused(now);
                evictOverLimit();
            }
        }
    }

    /** Deletes built files unused for longer than the retention. Holds the lock. */
    private void expireUnused(long now) {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext();) {
            Entry entry = it.next();
            if (entry.users == 0 && entry.file != null && now - entry.lastUsedMillis > retentionMillis) {
                it.remove();
                delete(entry);
            }
        }
    }

    /** Deletes unused files, least recently used first, until the files fit the disk limit. Holds the lock. */
    private void evictOverLimit() {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && diskBytes > maxDiskBytes;) {
            Entry entry = it.next();
            if (entry.users == 0 && entry.file != null) {
                it.remove();
                delete(entry);
            }
        }
    }

    /** Closes and deletes the file of an entry just removed from the map. Holds the lock. */
    private void delete(Entry entry) {
        if (entry.file != null) {
            diskBytes -= entry.file.diskBytes();
            deleteQuietly(entry.file, entry.localPath);
            entry.file = null;
        }
    }

    private static void deleteQuietly(LookupFile file, Path path) {
        try {
            file.close();
        } catch (IOException ignored) {
            // deleting it next is all that matters
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // left for close(), which deletes the whole directory
        }
    }

    private static String localName(String dataFileName, long id) {
        return dataFileName.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + id + ".lookup";
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Cannot use lookup file cache " + directory + ": it is closed");
        }
    }

    /** The bytes of the local files kept now (in use or not). */
    public long diskBytes() {
        synchronized (lock) {
            return diskBytes;
        }
    }

    /** How many lookup files are kept now, built or being built. */
    public int fileCount() {
        synchronized (lock) {
            return entries.size();
        }
    }

    /** How many lookup files this cache has built so far (a measure of its misses). */
    public long filesBuilt() {
        synchronized (lock) {
            return filesBuilt;
        }
    }

    /** The cache's own directory, deleted by {@link #close()}. */
    public Path directory() {
        return directory;
    }

    /**
     * Closes and deletes every file and the cache's directory. Leases still open become unusable (their
     * lookups fail); builds still running fail when they finish.
     */
    @Override
    public void close() throws IOException {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            for (Entry entry : entries.values()) {
                delete(entry);
            }
            entries.clear();
        }
        deleteRecursively(directory);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * The use of one cached lookup file: the file stays on disk, not evicted, until the lease is closed.
     * The file may be used by several threads; closing twice is harmless.
     */
    public final class Lease implements AutoCloseable {
        private final Entry entry;
        private boolean released;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        /** The lookup file; valid until this lease is closed. */
        public LookupFile file() {
            return entry.ready.join();
        }

        @Override
        public void close() {
            synchronized (this) {
                if (released) {
                    return;
                }
                released = true;
            }
            release(entry);
        }
    }

    /** What a lookup file is cached under: the data file and the types its records were read as. */
    private record CacheKey(String dataFileName, RowType keyType, RowType valueType) {}

    /** A cached file, or one being built (then {@code file} is null). Mutable fields are guarded by the lock. */
    private static final class Entry {
        final CacheKey key;
        final Path localPath;
        final CompletableFuture<LookupFile> ready = new CompletableFuture<>();
        LookupFile file;
        int users;
        long lastUsedMillis;
        boolean dropWhenUnused;

        Entry(CacheKey key, Path localPath) {
            this.key = key;
            this.localPath = localPath;
        }
    }
}
