package dev.streamhouse.flink.source.split.v1;

/** The Java-serialized form of storage's {@code FileSource} in split serializer version 1 (by name), frozen. */
enum FileSource {
    APPEND,
    COMPACT
}
