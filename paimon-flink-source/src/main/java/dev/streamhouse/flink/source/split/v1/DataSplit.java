package dev.streamhouse.flink.source.split.v1;

import java.io.Serializable;
import java.util.List;

/**
 * The Java-serialized form of storage's {@code DataSplit} in split serializer version 1, frozen:
 * same simple name and components as the storage record had (Java serialization matches classes by
 * simple name and record components by name). Splits written before {@code delta} existed read it
 * as false. Only {@link DataSplitV1Reader} reads into it.
 */
record DataSplit(long snapshotId, BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files,
        boolean rawConvertible, boolean delta) implements Serializable {}
