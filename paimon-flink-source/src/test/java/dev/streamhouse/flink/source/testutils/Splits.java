package dev.streamhouse.flink.source.testutils;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.deletionvectors.DeletionFile;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.types.DataTypes;

import java.util.Arrays;
import java.util.Collections;
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

    private static BinaryRow row(String... values) {
        Object[] internal = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            internal[i] = values[i] == null ? null : BinaryString.fromString(values[i]);
        }
        return new BinaryRowConverter(Collections.nCopies(values.length, DataTypes.STRING())).toBinaryRow(internal);
    }

    /** A file with every nullable field set (golden files; never change it). */
    private static DataFileMeta fullFile(String name) {
        return new DataFileMeta(name, 1234, 56, row("a"), row("z"),
                new SimpleStats(row("a"), row("z"), new Long[] {0L}),
                new SimpleStats(row("a", null), row("zürich", "é"), new Long[] {0L, null}),
                7, 62, 3, 2, List.of("extra-1", "extra-2"), 1_700_000_000_000L, 4L, new byte[] {1, 2, 3},
                FileSource.COMPACT, List.of("k", "v"), "s3://bucket/x/" + name, 100L, List.of("v"));
    }

    /** A file with every nullable field null (golden files; never change it). */
    private static DataFileMeta sparseFile(String name) {
        return new DataFileMeta(name, 10, 1, BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, SimpleStats.EMPTY,
                new SimpleStats(BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, null), 0, 0, 0, 0, List.of(), null, null,
                null, null, null, null, null, null);
    }

    /**
     * A split of golden files (never change it): partition dt='2024-01-01', city='Zürich', bucket 1 of
     * 4, three files with deletion files (one none), id with a non-ASCII character, 42 rows read.
     */
    public static PaimonSplit withDeletionFiles() {
        DataSplit split = new DataSplit(9, row("2024-01-01", "Zürich"), 1, 4,
                List.of(fullFile("data-1"), sparseFile("data-2"), sparseFile("data-3")), true, false,
                Arrays.asList(new DeletionFile("file:/warehouse/db.db/t/index/index-5f0c-0", 1, 22, 3L), null,
                        new DeletionFile("s3://bucket/index/index-5f0c-1", 31, 48, null)));
        return new PaimonSplit("9-ü-1", split, 42);
    }

    /** A diff split of golden files (never change it): two before-files, one after-file, nothing read yet. */
    public static PaimonSplit diff() {
        DataSplit split = new DataSplit(11, row("2024-01-03", null), 2, 4, List.of(fullFile("data-4")), false, false,
                null, List.of(sparseFile("data-1"), fullFile("data-2")));
        return PaimonSplit.fresh("11-2", split);
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
