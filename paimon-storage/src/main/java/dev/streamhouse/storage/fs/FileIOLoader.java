package dev.streamhouse.storage.fs;

import dev.streamhouse.storage.options.Options;

import java.util.Set;

/**
 * Makes the {@link FileIO} for the paths of some URI schemes (a service: {@code
 * META-INF/services/dev.streamhouse.storage.fs.FileIOLoader}). The loader receives the options of the
 * catalog (or, for a table used without a catalog, of the table), so a file system can read its
 * settings from them, e.g. {@code s3.endpoint}. {@link FileIOs} picks the loader by scheme.
 * Implementations have a public no-argument constructor and are stateless.
 */
public interface FileIOLoader {

    /** The schemes served, lower case, e.g. {@code file}; a path without scheme counts as {@code file}. */
    Set<String> schemes();

    /**
     * The file IO for {@code root} and the paths below it.
     *
     * @throws IllegalArgumentException if the options do not configure it (the message names the option)
     */
    FileIO load(Path root, Options options);
}
