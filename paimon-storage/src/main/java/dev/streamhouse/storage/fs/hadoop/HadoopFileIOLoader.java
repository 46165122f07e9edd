package dev.streamhouse.storage.fs.hadoop;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileIOLoader;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;

import java.util.Set;

/**
 * {@code hdfs://} (and {@code viewfs://}) warehouses through Hadoop's HDFS client, configured by the
 * Hadoop configuration directory and the catalog's {@code hadoop.*} / {@code fs.*} options
 * ({@link HadoopSettings}).
 */
public final class HadoopFileIOLoader implements FileIOLoader {

    @Override
    public Set<String> schemes() {
        return Set.of("hdfs", "viewfs");
    }

    @Override
    public FileIO load(Path root, Options options) {
        return new HadoopFileIO(HadoopFileIO.fileSystemUri(root), HadoopSettings.fromOptions(options));
    }
}
