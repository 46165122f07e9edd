package dev.streamhouse.storage.mergetree.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.mergetree.lookup.LookupFileCache.Lease;
import dev.streamhouse.storage.mergetree.lookup.LookupTestTable.Version;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.testutils.GatedFileIO;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

class LookupFileCacheTest {
    private static final BinaryRow PARTITION = BinaryRow.EMPTY_ROW;

    @TempDir
    Path tmp;
    private LookupTestTable table;
    private final Random random = new Random(42);
    private final AtomicLong clock = new AtomicLong(1_000);

    @BeforeEach
    void setUp() throws IOException {
        table = new LookupTestTable(tmp.resolve("table"), KeyShape.INT_KEY);
    }

    /** A level-1 file of keys {@code from, from + 1, ..., from + 39}. */
    private DataFileMeta file(int from) throws IOException {
        List<Version> versions = new ArrayList<>();
        for (int i = from; i < from + 40; i++) {
            versions.add(table.version(i, i, RowKind.INSERT, random));
        }
        return table.writeFile(1, versions);
    }

    private LookupFileCache cache(long maxDiskBytes, Duration retention) throws IOException {
        return new LookupFileCache(tmp.resolve("local"), LookupFileSettings.defaults(), maxDiskBytes, retention,
                clock::get);
    }

    private Lease acquire(LookupFileCache cache, DataFileMeta file) throws IOException {
        return cache.acquire(table.readers, PARTITION, LookupTestTable.BUCKET, file);
    }

    /** Builds and releases {@code file}'s lookup file. */
    private void use(LookupFileCache cache, DataFileMeta file) throws IOException {
        try (Lease lease = acquire(cache, file)) {
            assertThat(lease.file().recordCount()).isEqualTo(40);
        }
    }

    private static List<Path> localFiles(LookupFileCache cache) throws IOException {
        try (Stream<Path> files = Files.list(cache.directory())) {
            return files.toList();
        }
    }

    /** The local files match what the cache says it keeps. */
    private static void assertDiskMatches(LookupFileCache cache) throws IOException {
        List<Path> files = localFiles(cache);
        long bytes = 0;
        for (Path f : files) {
            bytes += Files.size(f);
        }
        assertThat(files).hasSize(cache.fileCount());
        assertThat(bytes).isEqualTo(cache.diskBytes());
    }

    private long sizeOfOne(DataFileMeta file) throws IOException {
        try (LookupFileCache probe = new LookupFileCache(tmp.resolve("probe"), LookupFileSettings.defaults(),
                Long.MAX_VALUE, Duration.ofHours(1))) {
            use(probe, file);
            return probe.diskBytes();
        }
    }

    @Test
    void cachedFilesAreReusedAndHoldTheDataFile() throws IOException {
        DataFileMeta file = file(0);
        try (LookupFileCache cache = cache(Long.MAX_VALUE, Duration.ofHours(1))) {
            try (Lease first = acquire(cache, file); Lease second = acquire(cache, file)) {
                assertThat(second.file()).isSameAs(first.file());
                LookupEntry entry = first.file().lookup(table.key(7));
                assertThat(entry.sequenceNumber()).isEqualTo(7);
                assertThat(entry.rowPosition()).isEqualTo(7);
                assertThat(first.file().lookup(table.key(40))).isNull();
            }
            use(cache, file);
            assertThat(cache.filesBuilt()).isEqualTo(1);
            assertThat(cache.fileCount()).isEqualTo(1);
            assertDiskMatches(cache);
        }
    }

    @Test
    void aReaderOfOtherColumnsGetsAFileOfItsOwn() throws IOException {
        DataFileMeta file = file(0);
        KeyValueFileReaderFactory nameOnly = table.table.readerFactory(new int[] {1}, null);
        try (LookupFileCache cache = cache(Long.MAX_VALUE, Duration.ofHours(1));
                Lease all = acquire(cache, file);
                Lease projected = cache.acquire(nameOnly, PARTITION, 0, file)) {
            assertThat(cache.filesBuilt()).isEqualTo(2);
            assertThat(all.file().lookup(table.key(3)).value().arity()).isEqualTo(3);
            assertThat(projected.file().lookup(table.key(3)).value().arity()).isEqualTo(1);
        }
    }

    @Test
    @Timeout(60)
    void aFileIsBuiltOnceWhenSeveralThreadsAskAtOnce() throws Exception {
        DataFileMeta file = file(0);
        GatedFileIO io = new GatedFileIO();
        KeyValueFileReaderFactory readers = new KeyValueFileReaderFactory(io, table.table.paths(),
                table.table.layout(), table.table.schemas, table.table.allColumns(), null);
        try (LookupFileCache cache = cache(Long.MAX_VALUE, Duration.ofHours(1))) {
            io.closeGate();
            int n = 6;
            Lease[] leases = new Lease[n];
            Throwable[] failures = new Throwable[n];
            Thread[] threads = new Thread[n];
            for (int t = 0; t < n; t++) {
                int id = t;
                threads[t] = new Thread(() -> {
                    try {
                        leases[id] = cache.acquire(readers, PARTITION, 0, file);
                    } catch (Throwable e) {
                        failures[id] = e;
                    }
                });
                threads[t].start();
            }
            // until one thread holds at the gate, opening the data file, and all others wait for its build
            awaitAllWaiting(threads, io);
            assertThat(io.dataFileOpens()).isEqualTo(1);
            assertThat(cache.filesBuilt()).isZero();
            io.openGate();
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).containsOnlyNulls();
            assertThat(cache.filesBuilt()).isEqualTo(1);
            for (Lease lease : leases) {
                assertThat(lease.file()).isSameAs(leases[0].file());
                assertThat(lease.file().lookup(table.key(5)).sequenceNumber()).isEqualTo(5);
                lease.close();
            }
            assertThat(localFiles(cache)).hasSize(1);
        }
    }

    private static void awaitAllWaiting(Thread[] threads, GatedFileIO io) {
        while (true) {
            boolean allWaiting = io.dataFileOpens() >= 1;
            for (Thread t : threads) {
                Thread.State s = t.getState();
                assertThat(s).as("no thread finished while the build is held").isNotEqualTo(Thread.State.TERMINATED);
                allWaiting &= s == Thread.State.WAITING;
            }
            if (allWaiting) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    @Test
    @Timeout(60)
    void threadsWaitingForAFailingBuildShareItsFailure() throws Exception {
        DataFileMeta file = file(0);
        Files.delete(LocalFileIO.toNio(table.table.paths().dataFile(PARTITION, 0, file.fileName())));
        GatedFileIO io = new GatedFileIO();
        KeyValueFileReaderFactory readers = new KeyValueFileReaderFactory(io, table.table.paths(),
                table.table.layout(), table.table.schemas, table.table.allColumns(), null);
        try (LookupFileCache cache = cache(Long.MAX_VALUE, Duration.ofHours(1))) {
            io.closeGate();
            int n = 4;
            Throwable[] failures = new Throwable[n];
            Thread[] threads = new Thread[n];
            for (int t = 0; t < n; t++) {
                int id = t;
                threads[t] = new Thread(() -> {
                    try {
                        cache.acquire(readers, PARTITION, 0, file).close();
                    } catch (Throwable e) {
                        failures[id] = e;
                    }
                });
                threads[t].start();
            }
            awaitAllWaiting(threads, io);
            io.openGate();
            for (Thread t : threads) {
                t.join();
            }
            for (Throwable failure : failures) {
                assertThat(failure).isInstanceOf(IOException.class).hasMessageContaining(file.fileName());
            }
            assertThat(io.dataFileOpens()).as("one build was tried").isEqualTo(1);
            assertThat(cache.fileCount()).isZero();
            assertThat(localFiles(cache)).isEmpty();
        }
    }

    @Test
    void aMissingDataFileFailsNamingItLeavesNothingAndALaterCallTriesAgain() throws IOException {
        DataFileMeta file = file(0);
        Path data = LocalFileIO.toNio(table.table.paths().dataFile(PARTITION, 0, file.fileName()));
        Path aside = tmp.resolve("aside.parquet");
        Files.move(data, aside);
        try (LookupFileCache cache = cache(Long.MAX_VALUE, Duration.ofHours(1))) {
            assertThatThrownBy(() -> acquire(cache, file))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("Cannot build the local lookup file of data file " + file.fileName());
            assertThat(cache.fileCount()).isZero();
            assertThat(cache.diskBytes()).isZero();
            assertThat(localFiles(cache)).isEmpty();

            Files.move(aside, data);
            use(cache, file);
            assertThat(cache.filesBuilt()).isEqualTo(1);
        }
    }

    /** The row count check fails after the whole file was written (in many blocks): the partial file goes. */
    @Test
    void aBuildFailingAfterWritingBlocksLeavesNoPartialFile() throws IOException {
        DataFileMeta file = file(0);
        DataFileMeta wrongCount = new DataFileMeta(file.fileName(), file.fileSize(), file.rowCount() + 1,
                file.minKey(), file.maxKey(), file.keyStats(), file.valueStats(), file.minSequenceNumber(),
                file.maxSequenceNumber(), file.schemaId(), file.level(), file.extraFiles(), file.creationTimeMillis(),
                file.deleteRowCount(), file.embeddedIndex(), file.fileSource(), file.valueStatsCols(),
                file.externalPath(), file.firstRowId(), file.writeCols());
        for (LookupFileType type : LookupFileType.values()) {
            try (LookupFileCache cache = new LookupFileCache(tmp.resolve("local"),
                    LookupFileSettings.defaults().withFileType(type).withBlockSizeBytes(64), Long.MAX_VALUE,
                    Duration.ofHours(1))) {
                assertThatThrownBy(() -> cache.acquire(table.readers, PARTITION, 0, wrongCount))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining(file.fileName())
                        .hasMessageContaining("read 40 records but the file has 41 rows");
                assertThat(localFiles(cache)).isEmpty();
                assertThat(cache.fileCount()).isZero();
            }
        }
    }

    @Test
    void leastRecentlyUsedUnusedFilesAreEvictedOverTheDiskLimit() throws IOException {
        DataFileMeta a = file(0);
        DataFileMeta b = file(100);
        DataFileMeta c = file(200);
        DataFileMeta d = file(300);
        long one = sizeOfOne(a);
        long limit = one * 5 / 2;
        try (LookupFileCache cache = cache(limit, Duration.ofHours(1))) {
            use(cache, a);
            use(cache, b);
            use(cache, a); // a is now more recent than b
            assertThat(cache.filesBuilt()).isEqualTo(2);
            use(cache, c); // three files: over the limit, b goes
            assertThat(cache.fileCount()).isEqualTo(2);
            assertThat(cache.diskBytes()).isLessThanOrEqualTo(limit);
            assertDiskMatches(cache);
            use(cache, a);
            use(cache, c);
            assertThat(cache.filesBuilt()).as("a and c were kept").isEqualTo(3);
            use(cache, b);
            assertThat(cache.filesBuilt()).as("b was evicted, so built again").isEqualTo(4);

            // in use, none is evicted, even far over the limit
            try (Lease la = acquire(cache, a); Lease lb = acquire(cache, b); Lease lc = acquire(cache, c);
                    Lease ld = acquire(cache, d)) {
                assertThat(cache.fileCount()).isEqualTo(4);
                assertThat(cache.diskBytes()).isGreaterThan(limit);
                assertDiskMatches(cache);
                for (Lease l : List.of(la, lb, lc, ld)) {
                    assertThat(l.file().recordCount()).isEqualTo(40);
                }
                assertThat(ld.file().lookup(table.key(339))).isNotNull();
            }
            // released: back under the limit
            assertThat(cache.diskBytes()).isLessThanOrEqualTo(limit);
            assertThat(cache.fileCount()).isEqualTo(2);
            assertDiskMatches(cache);
        }
    }

    @Test
    void aFileLargerThanTheLimitIsUsableWhileLeasedAndDeletedAfter() throws IOException {
        DataFileMeta a = file(0);
        try (LookupFileCache cache = cache(1, Duration.ofHours(1))) {
            try (Lease lease = acquire(cache, a)) {
                assertThat(lease.file().lookup(table.key(39))).isNotNull();
                assertThat(cache.diskBytes()).isGreaterThan(1);
            }
            assertThat(cache.fileCount()).isZero();
            assertThat(localFiles(cache)).isEmpty();
        }
    }

    @Test
    void filesUnusedForLongerThanTheRetentionAreDeleted() throws IOException {
        DataFileMeta a = file(0);
        DataFileMeta b = file(100);
        DataFileMeta c = file(200);
        DataFileMeta d = file(300);
        try (LookupFileCache cache = cache(Long.MAX_VALUE, Duration.ofMillis(100))) {
            use(cache, a); // last used at 1000
            clock.set(1_100);
            use(cache, b); // a unused for exactly the retention: kept
            assertThat(cache.fileCount()).isEqualTo(2);
            clock.set(1_101);
            Lease held = acquire(cache, c); // a unused for longer: deleted; b kept
            assertThat(cache.fileCount()).isEqualTo(2);
            assertDiskMatches(cache);
            assertThat(cache.filesBuilt()).isEqualTo(3);

            clock.set(10_000);
            use(cache, d); // b expired; c is in use, so kept however long
            assertThat(cache.fileCount()).isEqualTo(2);
            assertThat(held.file().lookup(table.key(205))).isNotNull();
            held.close(); // c last used at 10000
            clock.set(10_050);
            use(cache, c);
            assertThat(cache.filesBuilt()).as("c was kept").isEqualTo(4);
            use(cache, a);
            assertThat(cache.filesBuilt()).as("a was deleted, so built again").isEqualTo(5);
            assertDiskMatches(cache);
        }
    }

    @Test
    void retainOnlyDropsFilesOfDataFilesThatLeftTheTable() throws IOException {
        DataFileMeta a = file(0);
        DataFileMeta b = file(100);
        DataFileMeta c = file(200);
        try (LookupFileCache cache = cache(Long.MAX_VALUE, Duration.ofHours(1))) {
            use(cache, a);
            use(cache, b);
            Lease held = acquire(cache, c);
            cache.retainOnly(Set.of(b.fileName()));
            assertThat(cache.fileCount()).as("a deleted; c in use").isEqualTo(2);
            assertThat(held.file().lookup(table.key(200))).isNotNull();
            held.close();
            assertThat(cache.fileCount()).isEqualTo(1);
            assertDiskMatches(cache);
            use(cache, b);
            assertThat(cache.filesBuilt()).isEqualTo(3);
        }
    }

    @Test
    void closeDeletesEverythingAndTheCacheRefusesUse() throws IOException {
        DataFileMeta a = file(0);
        DataFileMeta b = file(100);
        LookupFileCache cache = cache(Long.MAX_VALUE, Duration.ofHours(1));
        Path directory = cache.directory();
        assertThat(directory.getParent()).isEqualTo(tmp.resolve("local"));
        use(cache, a);
        Lease open = acquire(cache, b);
        assertThat(localFiles(cache)).hasSize(2);
        cache.close();
        assertThat(directory).doesNotExist();
        assertThat(tmp.resolve("local")).exists();
        assertThatThrownBy(() -> open.file().lookup(table.key(100))).isInstanceOf(IOException.class);
        open.close();
        assertThatThrownBy(() -> acquire(cache, a))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        cache.close();
    }

    @Test
    void tableOptionsConfigureTheCache() throws IOException {
        DataFileMeta a = file(0);
        Options options = Options.of("lookup.local-file-type", "hash", "lookup.cache-max-disk-size", "1 b");
        try (LookupFileCache cache = LookupFileCache.create(tmp.resolve("local"), options)) {
            try (Lease lease = acquire(cache, a)) {
                assertThat(lease.file()).isInstanceOf(HashLookupFile.class);
                assertThat(lease.file().lookup(table.key(3)).rowPosition()).isEqualTo(3);
            }
            assertThat(cache.fileCount()).as("over the 1-byte limit once released").isZero();
        }
    }

    @Test
    void twoCachesUnderOneParentKeepApart() throws IOException {
        DataFileMeta a = file(0);
        try (LookupFileCache one = cache(Long.MAX_VALUE, Duration.ofHours(1));
                LookupFileCache two = cache(Long.MAX_VALUE, Duration.ofHours(1))) {
            assertThat(one.directory()).isNotEqualTo(two.directory());
            use(one, a);
            use(two, a);
            one.close();
            try (Lease lease = acquire(two, a)) {
                assertThat(lease.file().lookup(table.key(1))).isNotNull();
            }
        }
    }
}
