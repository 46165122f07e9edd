package dev.streamhouse.fs.s3;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileIOLoader;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.hadoop.HadoopFileIO;
import dev.streamhouse.storage.fs.hadoop.HadoopSettings;
import dev.streamhouse.storage.options.Options;

import org.apache.hadoop.fs.s3a.UnknownStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code s3://} and {@code s3a://} warehouses ({@link S3FileIO}), configured by the catalog's
 * {@code s3.*} options ({@link S3Settings}), Hadoop settings, or the AWS credential providers S3A
 * tries by default (environment, profile, instance role).
 *
 * <p>Opening a warehouse checks, once per bucket and settings in this JVM, that the bucket is
 * reachable with the credentials (a clear error for wrong credentials or a missing bucket) and
 * whether the store enforces conditional writes ({@link ConditionalWrites}).
 */
public final class S3FileIOLoader implements FileIOLoader {
    private static final Logger LOG = LoggerFactory.getLogger(S3FileIOLoader.class);

    private record Key(URI bucket, HadoopSettings settings) {}

    private static final Map<Key, ConditionalWrites> CHECKED = new ConcurrentHashMap<>();

    @Override
    public Set<String> schemes() {
        return Set.of("s3", "s3a");
    }

    @Override
    public FileIO load(Path root, Options options) {
        if (root.authority() == null || root.authority().isEmpty()) {
            throw new IllegalArgumentException("Cannot open " + root + ": an S3 location names its bucket, "
                    + "e.g. s3://my-bucket/warehouse");
        }
        HadoopSettings settings = S3Settings.fromOptions(options);
        URI bucket = HadoopFileIO.fileSystemUri(root);
        String store = describeStore(root.authority(), settings);
        S3FileIO unchecked = new S3FileIO(bucket, settings,
                new ConditionalWrites(ConditionalWrites.State.UNKNOWN, store));
        ConditionalWrites checked = CHECKED.get(new Key(bucket, settings));
        if (checked == null) {
            checked = check(unchecked, root, store);
            if (checked.state() != ConditionalWrites.State.UNKNOWN) {
                CHECKED.put(new Key(bucket, settings), checked);
            }
        }
        return unchecked.withConditionalWrites(checked);
    }

    /**
     * Failures are {@link IllegalArgumentException}s whose message says what to fix, with the S3 client's
     * first line in it. The client's exception is logged, not chained: Flink's SQL client shows the last
     * "Caused by" of an error's stack trace, which would be the client's bare "403 Forbidden".
     */
    private static ConditionalWrites check(S3FileIO fileIO, Path root, String store) {
        try {
            fileIO.exists(root);
        } catch (AccessDeniedException e) {
            throw refused("Cannot open " + root + ": " + store + " denied access. Check the credentials "
                    + "('s3.access-key' and 's3.secret-key', or the AWS credential providers) and the bucket's "
                    + "permissions (" + firstLine(e) + ")", e);
        } catch (UnknownStoreException e) {
            throw refused("Cannot open " + root + ": bucket '" + root.authority() + "' does not exist at " + store
                    + " (" + firstLine(e) + ")", e);
        } catch (IOException e) {
            throw refused("Cannot open " + root + ": cannot reach " + store + "; check 's3.endpoint' ("
                    + firstLine(e) + ")", e);
        }
        try {
            return ConditionalWrites.probe(fileIO, root, store);
        } catch (IOException e) {
            throw refused("Cannot open " + root + ": writing a probe object to " + store + " failed ("
                    + firstLine(e) + ")", e);
        }
    }

    private static IllegalArgumentException refused(String message, Exception detail) {
        LOG.warn(message, detail);
        return new IllegalArgumentException(message);
    }

    private static String describeStore(String bucket, HadoopSettings settings) {
        String endpoint = settings.get("fs.s3a.endpoint");
        return "the S3 store " + (endpoint == null || endpoint.isBlank() ? "(AWS)" : endpoint)
                + " for bucket '" + bucket + "'";
    }

    private static String firstLine(Exception e) {
        String message = String.valueOf(e.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
