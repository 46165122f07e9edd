package dev.streamhouse.flink.source.testutils;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.types.DataTypes;

import java.util.List;

/** Hand-made splits for tests that need no table. */
public final class Splits {
    private Splits() {}

    /** A split of no files; enough for assignment tests. */
    public static PaimonSplit empty(String id) {
        return PaimonSplit.fresh(id, new DataSplit(1, BinaryRow.EMPTY_ROW, 0, 1, List.of(), true));
    }

    /** A delta split of no files: the changes of {@code snapshotId} to {@code bucket} (of 4). */
    public static DataSplit delta(long snapshotId, int bucket) {
        return new DataSplit(snapshotId, BinaryRow.EMPTY_ROW, bucket, 4, List.of(), true, true);
    }

    /** A fully determined split (partition dt='2024-01-01', bucket 3 of 4, two files), 42 rows read. */
    public static PaimonSplit deterministic() {
        BinaryRow partition = new BinaryRowConverter(List.of(DataTypes.STRING()))
                .toBinaryRow(new Object[] {BinaryString.fromString("2024-01-01")});
        DataFileMeta f1 = DataFileMeta.forAppend("data-6b1c1e2f-0.parquet", 1234, 100, SimpleStats.EMPTY, 0, 99, 0,
                1_700_000_000_000L, FileSource.APPEND, null);
        DataFileMeta f2 = DataFileMeta.forAppend("data-6b1c1e2f-1.parquet", 2345, 50, SimpleStats.EMPTY, 100, 149, 1,
                null, FileSource.COMPACT, List.of("id"));
        return new PaimonSplit("7-0", new DataSplit(7, partition, 3, 4, List.of(f1, f2), true), 42);
    }
}
