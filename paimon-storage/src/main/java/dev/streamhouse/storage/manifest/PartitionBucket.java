package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;

/** A (partition, bucket) pair: the unit of files, writers and splits. */
public record PartitionBucket(BinaryRow partition, int bucket) {}
