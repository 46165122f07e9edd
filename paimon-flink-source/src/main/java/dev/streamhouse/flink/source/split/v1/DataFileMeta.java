package dev.streamhouse.flink.source.split.v1;

import java.io.Serializable;
import java.util.List;

/** The Java-serialized form of storage's {@code DataFileMeta} in split serializer version 1, frozen. */
record DataFileMeta(
        String fileName,
        long fileSize,
        long rowCount,
        BinaryRow minKey,
        BinaryRow maxKey,
        SimpleStats keyStats,
        SimpleStats valueStats,
        long minSequenceNumber,
        long maxSequenceNumber,
        long schemaId,
        int level,
        List<String> extraFiles,
        Long creationTimeMillis,
        Long deleteRowCount,
        byte[] embeddedIndex,
        FileSource fileSource,
        List<String> valueStatsCols,
        String externalPath,
        Long firstRowId,
        List<String> writeCols) implements Serializable {}
