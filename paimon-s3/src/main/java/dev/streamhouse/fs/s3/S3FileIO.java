package dev.streamhouse.fs.s3;

import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.hadoop.HadoopFileIO;
import dev.streamhouse.storage.fs.hadoop.HadoopSettings;
import dev.streamhouse.storage.fs.hadoop.OwnContextClassLoader;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.s3a.RemoteFileChangedException;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

import java.io.IOException;
import java.net.URI;

/**
 * An S3 bucket through Hadoop's S3A, with commits as safe as on a local disk.
 *
 * <p>{@link #createIfAbsent} (the snapshot, schema and other publish-once files) is one PUT with
 * {@code If-None-Match: *}: the store creates the object only if none exists, so of racing committers
 * exactly one wins and the others see a 412 (a lost race, not an error). No rename, no listing. The
 * create skips S3A's existence check (HEAD), which the condition makes redundant.
 *
 * <p>Some S3-compatible stores accept {@code If-None-Match} and ignore it, which would let two
 * committers both write {@code snapshot-<id>}. {@link S3FileIOLoader} finds that out once when the
 * warehouse is opened ({@link ConditionalWrites#probe}); on such a store this file IO reads and writes
 * data files but refuses {@link #createIfAbsent}, so nothing is ever committed unsafely, unless the
 * catalog holds a commit lock ({@link #createIfAbsentUnderLock}).
 */
public final class S3FileIO extends HadoopFileIO {
    private static final long serialVersionUID = 1L;

    static final String CONDITIONAL_OVERWRITE = "fs.option.create.conditional.overwrite";
    static final String CREATE_PERFORMANCE = "fs.s3a.create.performance";

    private final ConditionalWrites conditionalWrites;
    /** The outcome of probing at the first commit when opening could not probe (state UNKNOWN). */
    private transient volatile ConditionalWrites probedAtCommit;

    S3FileIO(URI bucketUri, HadoopSettings settings, ConditionalWrites conditionalWrites) {
        super(bucketUri, settings);
        this.conditionalWrites = conditionalWrites;
    }

    S3FileIO withConditionalWrites(ConditionalWrites checked) {
        return new S3FileIO(uri(), settings(), checked);
    }

    ConditionalWrites conditionalWrites() {
        return conditionalWrites;
    }

    /** S3A's request counters (e.g. {@code object_metadata_request}), for tests that count round trips. */
    java.util.Map<String, Long> requestCounts() throws IOException {
        IOStatisticsSource s3a = (IOStatisticsSource) fileSystem();
        return new java.util.TreeMap<>(s3a.getIOStatistics().counters());
    }

    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        ConditionalWrites checked = conditionalWrites;
        if (checked.state() == ConditionalWrites.State.UNKNOWN) {
            checked = probedAtCommit;
            if (checked == null) {
                checked = ConditionalWrites.probe(this, path.parent(), conditionalWrites.store());
                probedAtCommit = checked;
            }
        }
        checked.checkSafe(path);
        return putIfAbsent(path, content);
    }

    /**
     * Under a commit lock every writer takes, a store that ignores conditional writes is used with a check
     * and a plain PUT; a store that enforces them keeps the conditional PUT.
     */
    @Override
    public boolean createIfAbsentUnderLock(Path path, byte[] content) throws IOException {
        ConditionalWrites checked = probedAtCommit != null ? probedAtCommit : conditionalWrites;
        if (checked.state() == ConditionalWrites.State.ENFORCED) {
            return putIfAbsent(path, content);
        }
        if (exists(path)) {
            return false;
        }
        overwrite(path, content);
        return true;
    }

    /**
     * Creates an object without S3A's checks for an existing object or directory (a HEAD and a LIST per
     * file, two round trips for every data file a checkpoint writes). Without {@code overwrite} the PUT
     * carries {@code If-None-Match: *} instead, which the store enforces (checked when the warehouse was
     * opened): an existing object fails the upload when it completes rather than when it starts.
     */
    @Override
    protected FSDataOutputStream create(org.apache.hadoop.fs.Path path, boolean overwrite) throws IOException {
        FSDataOutputStreamBuilder<?, ?> builder = fileSystem().createFile(path).overwrite(overwrite);
        if (!overwrite) {
            builder.must(CONDITIONAL_OVERWRITE, true);
        }
        builder.opt(CREATE_PERFORMANCE, true);
        return builder.build();
    }

    /** The conditional PUT itself: true if this call created the object, false if one existed. */
    boolean putIfAbsent(Path path, byte[] content) throws IOException {
        return OwnContextClassLoader.call(() -> {
            try (FSDataOutputStream out = create(toHadoop(path), false)) {
                out.write(content);
            } catch (RemoteFileChangedException | FileAlreadyExistsException lostRace) {
                // 412 Precondition Failed: another writer created the object first.
                return false;
            }
            return true;
        });
    }
}
