package dev.streamhouse.storage.fs.hadoop;

import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One Hadoop {@link FileSystem} per (URI, settings) in a JVM, shared by every file IO and task that
 * uses it. Hadoop's own cache keys by URI and user only, so two catalogs with different settings for
 * the same bucket would silently share the first one's: this cache keys by the settings too.
 */
final class HadoopFileSystems {
    private HadoopFileSystems() {}

    private record Key(URI uri, HadoopSettings settings) {}

    private static final Map<Key, FileSystem> OPEN = new ConcurrentHashMap<>();

    static FileSystem get(URI uri, HadoopSettings settings) throws IOException {
        Key key = new Key(uri, settings);
        FileSystem fs = OPEN.get(key);
        if (fs != null) {
            return fs;
        }
        synchronized (OPEN) {
            fs = OPEN.get(key);
            if (fs == null) {
                try {
                    fs = FileSystem.newInstance(uri, settings.toConfiguration());
                } catch (IOException | RuntimeException e) {
                    throw new IOException("Cannot open the file system at " + uri + ": " + e, e);
                }
                OPEN.put(key, fs);
            }
            return fs;
        }
    }
}
