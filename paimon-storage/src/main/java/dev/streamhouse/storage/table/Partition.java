package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;

import java.util.LinkedHashMap;

/**
 * One partition of a table's snapshot and the totals of its live files.
 *
 * @param row the partition values (partition-key positions)
 * @param spec the values as the partition's directory names them, by partition key, in key order
 *     ({@code partition.default-name} for NULL)
 * @param lastFileCreationMillis the newest file creation time (wall clock, stored as UTC millis), or
 *     null if no file records one
 */
public record Partition(BinaryRow row, LinkedHashMap<String, String> spec, long recordCount, long fileSizeInBytes,
        long fileCount, Long lastFileCreationMillis) {}
