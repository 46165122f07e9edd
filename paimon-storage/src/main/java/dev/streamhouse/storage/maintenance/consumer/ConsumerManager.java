package dev.streamhouse.storage.maintenance.consumer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.MetadataJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The consumers of one table: files {@code <table>/consumer/consumer-<id>} holding
 * {@code { "nextSnapshot" : N }} (docs/format.md §11.3), the id of the next snapshot the named streaming
 * reader has not fully read yet. A reader started with that consumer id resumes there; snapshot
 * expiration (when it exists) must keep every snapshot {@code >= N}.
 *
 * <p>Files are written by plain overwrite, as Paimon does, formatted like Paimon's (Jackson's pretty
 * printer: {@code "{\n  \"nextSnapshot\" : N\n}"}). An overwrite is not atomic against readers, so a
 * read that finds a partial file retries a few times before reporting it corrupt.
 *
 * <p>Consumer ids must be non-blank and must not contain {@code /} or {@code \} (they become file
 * names). I/O failures are {@link IOException}s naming the file and the table; an unreadable consumer
 * file is a {@link CorruptConsumerException}. Thread-safe (no state besides the location).
 */
public final class ConsumerManager {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerManager.class);
    private static final String PREFIX = "consumer-";
    private static final String NEXT_SNAPSHOT = "nextSnapshot";
    private static final int READ_ATTEMPTS = 3;

    private final FileIO fileIO;
    private final Path tableRoot;

    public ConsumerManager(FileIO fileIO, Path tableRoot) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.tableRoot = Objects.requireNonNull(tableRoot, "tableRoot");
    }

    public Path consumerDirectory() {
        return new Path(tableRoot, "consumer");
    }

    /** The file of consumer {@code consumerId}. */
    public Path consumerPath(String consumerId) {
        return new Path(consumerDirectory(), PREFIX + checkId(consumerId));
    }

    private String checkId(String consumerId) {
        if (consumerId == null || consumerId.isBlank() || consumerId.contains("/") || consumerId.contains("\\")) {
            throw new IllegalArgumentException("Cannot use consumer id '" + consumerId + "' for table " + tableRoot
                    + ": it must be non-blank and must not contain '/' or '\\'; fix option 'consumer-id'");
        }
        return consumerId;
    }

    /** The next snapshot consumer {@code consumerId} reads, or empty if the consumer does not exist. */
    public Optional<Long> nextSnapshot(String consumerId) throws IOException {
        Path path = consumerPath(consumerId);
        IllegalArgumentException lastParseError = null;
        for (int attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
            String json;
            try {
                json = fileIO.readUtf8(path);
            } catch (FileNotFoundException e) {
                return Optional.empty();
            }
            try {
                return Optional.of(parse(json));
            } catch (IllegalArgumentException e) {
                // A writer may be overwriting the file right now; look again.
                lastParseError = e;
                LOG.debug("Cannot parse consumer file {} (attempt {}): {}", path, attempt, e.getMessage());
            }
        }
        throw new CorruptConsumerException(path, "Cannot read consumer file " + path + " of table " + tableRoot + ": "
                + lastParseError.getMessage() + "; fix or delete the file (the consumer then starts as 'scan.mode' "
                + "says)", lastParseError);
    }

    private static long parse(String json) {
        JsonNode node = MetadataJson.parseObject(json);
        JsonNode next = node.get(NEXT_SNAPSHOT);
        if (next == null || !next.canConvertToLong() || !next.isIntegralNumber()) {
            throw new IllegalArgumentException("it has no integer field '" + NEXT_SNAPSHOT + "'");
        }
        return next.asLong();
    }

    /**
     * Records that consumer {@code consumerId} reads snapshot {@code nextSnapshot} next (overwrites any
     * earlier value, also a larger one).
     *
     * @throws IllegalArgumentException if {@code nextSnapshot < 1} or the id is invalid
     */
    public void commit(String consumerId, long nextSnapshot) throws IOException {
        if (nextSnapshot < 1) {
            throw new IllegalArgumentException("Cannot record consumer '" + consumerId + "' of table " + tableRoot
                    + " at snapshot " + nextSnapshot + ": snapshot ids start at 1");
        }
        String json = MetadataJson.render(g -> {
            g.writeStartObject();
            g.writeNumberField(NEXT_SNAPSHOT, nextSnapshot);
            g.writeEndObject();
        });
        Path path = consumerPath(consumerId);
        try {
            fileIO.overwrite(path, json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IOException("Cannot write consumer file " + path + " of table " + tableRoot + ": "
                    + e.getMessage(), e);
        }
    }

    /** Deletes consumer {@code consumerId}; does nothing if it does not exist. */
    public void delete(String consumerId) throws IOException {
        Path path = consumerPath(consumerId);
        try {
            fileIO.delete(path, false);
        } catch (IOException e) {
            throw new IOException("Cannot delete consumer file " + path + " of table " + tableRoot + ": "
                    + e.getMessage(), e);
        }
    }

    /** Every consumer of the table with its next snapshot, by id (sorted); temp and foreign files ignored. */
    public Map<String, Long> list() throws IOException {
        Map<String, Long> out = new TreeMap<>();
        for (FileStatus status : fileIO.list(consumerDirectory())) {
            String name = status.path().name();
            if (status.isDirectory() || !name.startsWith(PREFIX) || name.length() == PREFIX.length()) {
                continue;
            }
            String id = name.substring(PREFIX.length());
            // Removed between listing and reading: not a consumer any more.
            nextSnapshot(id).ifPresent(next -> out.put(id, next));
        }
        return out;
    }
}
