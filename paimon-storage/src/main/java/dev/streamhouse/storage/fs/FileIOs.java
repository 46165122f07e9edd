package dev.streamhouse.storage.fs;

import dev.streamhouse.storage.options.Options;

import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Chooses the {@link FileIO} of a path by its URI scheme among the {@link FileIOLoader} services on
 * the classpath: local paths and {@code file:} here, {@code hdfs:} and {@code viewfs:} through Hadoop's
 * client, {@code s3:} and {@code s3a:} from the paimon-s3 module.
 */
public final class FileIOs {
    private FileIOs() {}

    /**
     * The file IO for {@code root}, configured with {@code options}.
     *
     * @throws IllegalArgumentException if no loader serves the scheme, naming the schemes there are
     */
    public static FileIO forPath(Path root, Options options) {
        String scheme = root.scheme() == null ? "file" : root.scheme().toLowerCase(Locale.ROOT);
        Map<String, FileIOLoader> loaders = loaders();
        FileIOLoader loader = loaders.get(scheme);
        if (loader == null) {
            throw new IllegalArgumentException("Cannot open " + root + ": scheme '" + scheme + "' is not supported yet"
                    + " (supported: " + String.join(", ", loaders.keySet()) + "; local paths have no scheme)");
        }
        return loader.load(root, options);
    }

    private static Map<String, FileIOLoader> loaders() {
        Map<String, FileIOLoader> out = new TreeMap<>();
        for (FileIOLoader loader : ServiceLoader.load(FileIOLoader.class, FileIOLoader.class.getClassLoader())) {
            for (String scheme : loader.schemes()) {
                out.putIfAbsent(scheme, loader);
            }
        }
        return out;
    }
}
