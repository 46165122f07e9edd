package dev.streamhouse.storage.fs;

/** What a listing says of one file or directory. */
public record FileStatus(Path path, long length, boolean isDirectory, long modificationTimeMillis) {}
