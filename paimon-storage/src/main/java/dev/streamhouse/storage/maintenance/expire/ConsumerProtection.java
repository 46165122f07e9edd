package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The consumers' hold on snapshots (docs/format.md §11.3): a consumer keeps every snapshot {@code >=} its
 * next snapshot. With {@code consumer.expiration-time} set, a consumer whose file was not updated for
 * that long is expired: it no longer protects anything, and {@link #expireConsumers} deletes it.
 *
 * <p>An unreadable consumer file is an {@link IOException}: expiration then stops rather than
 * delete snapshots a reader may need.
 */
final class ConsumerProtection {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerProtection.class);
    private static final String PREFIX = "consumer-";

    private final FileIO fileIO;
    private final ConsumerManager consumers;
    private final String tableName;

    ConsumerProtection(FileIO fileIO, Path tableRoot, String tableName) {
        this.fileIO = fileIO;
        this.consumers = new ConsumerManager(fileIO, tableRoot);
        this.tableName = tableName;
    }

    /**
     * The smallest next snapshot of the consumers that have not expired at {@code nowMillis}, or null
     * if there is none.
     *
     * @param expiration {@code consumer.expiration-time}, or null if consumers never expire
     */
    Long minNextSnapshot(long nowMillis, Duration expiration) throws IOException {
        Long min = null;
        for (FileStatus status : fileIO.list(consumers.consumerDirectory())) {
            String id = consumerId(status);
            if (id == null || isExpired(status, nowMillis, expiration)) {
                continue;
            }
            Optional<Long> next = consumers.nextSnapshot(id);
            if (next.isPresent() && (min == null || next.get() < min)) {
                min = next.get();
            }
        }
        return min;
    }

    /** Deletes the consumers expired at {@code nowMillis}; returns how many. Nothing if {@code expiration} is null. */
    int expireConsumers(long nowMillis, Duration expiration) throws IOException {
        if (expiration == null) {
            return 0;
        }
        int deleted = 0;
        for (FileStatus status : fileIO.list(consumers.consumerDirectory())) {
            String id = consumerId(status);
            if (id != null && isExpired(status, nowMillis, expiration)) {
                LOG.info("Expiring consumer '{}' of table {}: not updated for more than {}", id, tableName, expiration);
                consumers.delete(id);
                deleted++;
            }
        }
        return deleted;
    }

    private static String consumerId(FileStatus status) {
        String name = status.path().name();
        if (status.isDirectory() || !name.startsWith(PREFIX) || name.length() == PREFIX.length()) {
            return null;
        }
        return name.substring(PREFIX.length());
    }

    private static boolean isExpired(FileStatus status, long nowMillis, Duration expiration) {
        return expiration != null && status.modificationTimeMillis() < nowMillis - expiration.toMillis();
    }
}
