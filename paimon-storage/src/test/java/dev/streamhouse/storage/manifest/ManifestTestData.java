package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.util.List;

/** Builders of manifest values for tests; partitions are (dt STRING, p INT). */
final class ManifestTestData {
    static final RowType PARTITION_TYPE = RowType.of(DataTypes.STRING(), DataTypes.INT());
    private static final List<DataType> KEY_TYPES = List.of(DataTypes.INT().notNull());

    private ManifestTestData() {}

    static BinaryRow partition(String dt, Integer p) {
        return new BinaryRowConverter(PARTITION_TYPE.fieldTypes())
                .toBinaryRow(new Object[] {dt == null ? null : BinaryString.fromString(dt), p});
    }

    static BinaryRow key(int k) {
        return new BinaryRowConverter(KEY_TYPES).toBinaryRow(new Object[] {k});
    }

    /** A file with every nullable component set. */
    static DataFileMeta fullFile(String name, int level, long schemaId) {
        SimpleStats keyStats = new SimpleStats(key(1), key(9), new Long[] {0L});
        SimpleStats valueStats = new SimpleStats(key(-5), key(50), new Long[] {3L, null});
        return new DataFileMeta(name, 1234, 10, key(1), key(9), keyStats, valueStats, 5, 14, schemaId, level,
                List.of(name + ".index"), 1700000000123L, 2L, new byte[] {1, 2, 3}, FileSource.COMPACT,
                List.of("a", "b"), "s3://bucket/x/" + name, 77L, List.of("a"));
    }

    /** A file with every nullable component null (and null counts unknown). */
    static DataFileMeta minimalFile(String name, int level, long schemaId) {
        SimpleStats valueStats = new SimpleStats(BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, null);
        return new DataFileMeta(name, 99, 1, BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, SimpleStats.EMPTY, valueStats,
                0, 0, schemaId, level, List.of(), null, null, null, null, null, null, null, null);
    }

    static ManifestEntry add(BinaryRow partition, int bucket, DataFileMeta file) {
        return new ManifestEntry(FileKind.ADD, partition, bucket, 4, file);
    }

    static ManifestEntry delete(BinaryRow partition, int bucket, DataFileMeta file) {
        return new ManifestEntry(FileKind.DELETE, partition, bucket, 4, file);
    }
}
