package dev.streamhouse.fs.s3;

import dev.streamhouse.storage.fs.Path;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.util.UUID;

/**
 * Whether an S3 store enforces {@code If-None-Match: *} on PUT, which the atomic commit rests on,
 * as found by writing a probe object twice when the warehouse is opened.
 */
final class ConditionalWrites implements Serializable {
    private static final long serialVersionUID = 1L;

    enum State {
        /** The second conditional PUT of the probe was refused: commits are safe. */
        ENFORCED,
        /** The second conditional PUT overwrote the probe: the store ignores the condition. */
        IGNORED,
        /** Not probed (e.g. the credentials may not write): probed again at the first commit. */
        UNKNOWN
    }

    private final State state;
    private final String store;

    ConditionalWrites(State state, String store) {
        this.state = state;
        this.store = store;
    }

    String store() {
        return store;
    }

    State state() {
        return state;
    }

    /**
     * Writes {@code <root>/.streamhouse-conditional-write-probe-<uuid>} twice with {@code If-None-Match: *}
     * and deletes it again.
     */
    static ConditionalWrites probe(S3FileIO fileIO, Path root, String store) throws IOException {
        Path probe = new Path(root, ".streamhouse-conditional-write-probe-" + UUID.randomUUID());
        try {
            if (!fileIO.putIfAbsent(probe, "1".getBytes(StandardCharsets.UTF_8))) {
                return new ConditionalWrites(State.UNKNOWN, store);
            }
            boolean overwritten = fileIO.putIfAbsent(probe, "2".getBytes(StandardCharsets.UTF_8));
            return new ConditionalWrites(overwritten ? State.IGNORED : State.ENFORCED, store);
        } catch (AccessDeniedException readOnly) {
            return new ConditionalWrites(State.UNKNOWN, store);
        } finally {
            fileIO.deleteQuietly(probe);
        }
    }

    /** Refuses a commit on a store that ignores conditional writes. */
    void checkSafe(Path target) throws IOException {
        if (state == State.IGNORED) {
            throw new IOException("Cannot commit " + target + ": the S3 store " + store + " ignores conditional "
                    + "writes (a PUT with If-None-Match: * overwrote an existing object when the warehouse was "
                    + "opened), so two writers could both publish the same snapshot and one would silently "
                    + "lose its data. Use a store that supports conditional writes (AWS S3, MinIO, ...), or a "
                    + "local or hdfs:// warehouse, or a catalog with a commit lock ('metastore' = 'jdbc', "
                    + "'lock.enabled' = 'true'). Reading this warehouse works.");
        }
    }
}
