package dev.streamhouse.storage.mergetree.buffer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Creates and deletes write-buffer spill files, tracking the live ones so that a JVM shutdown hook
 * deletes whatever a crashed or unclosed writer left behind. Thread-safe.
 */
final class SpillFiles {
    private static final Logger LOG = LoggerFactory.getLogger(SpillFiles.class);
    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();

    private SpillFiles() {}

    /** A new empty spill file in {@code directory} (created if missing). */
    static Path create(Path directory) throws IOException {
        if (HOOK_INSTALLED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(SpillFiles::deleteAllLive, "write-buffer-spill-cleanup"));
        }
        try {
            Files.createDirectories(directory);
            Path file = Files.createTempFile(directory, "write-buffer-", ".spill");
            LIVE.add(file);
            return file;
        } catch (IOException e) {
            throw new IOException("Cannot create a write-buffer spill file in " + directory + ": " + e, e);
        }
    }

    /** Deletes {@code file}; a failure is logged (the shutdown hook retries) rather than thrown. */
    static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
            LIVE.remove(file);
        } catch (IOException e) {
            LOG.warn("Cannot delete write-buffer spill file {}: {}; retrying at JVM exit", file, e.toString());
        }
    }

    /** Spill files created and not yet deleted, in any buffer of this JVM. */
    static Set<Path> liveFiles() {
        return Set.copyOf(LIVE);
    }

    private static void deleteAllLive() {
        for (Path file : LIVE) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // The JVM is exiting; nothing else can be done.
            }
        }
    }
}
