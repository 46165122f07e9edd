package dev.streamhouse.storage.fs;

import dev.streamhouse.storage.options.Options;

import java.util.Set;

/** Local paths and {@code file:} URIs: {@link LocalFileIO}, which needs no settings. */
public final class LocalFileIOLoader implements FileIOLoader {

    @Override
    public Set<String> schemes() {
        return Set.of("file");
    }

    @Override
    public FileIO load(Path root, Options options) {
        return LocalFileIO.INSTANCE;
    }
}
