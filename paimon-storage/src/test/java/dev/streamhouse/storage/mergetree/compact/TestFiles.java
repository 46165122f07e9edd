package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.LevelSortedRun;
import dev.streamhouse.storage.mergetree.SortedRun;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.List;

/** Data file metadata for compaction tests: single INT keys, rows = size unless set. */
final class TestFiles {
    static final KeyComparator KEYS = new KeyComparator(RowType.of(DataTypes.INT().notNull()));
    private static final List<DataType> KEY_TYPES = List.of(DataTypes.INT().notNull());

    private TestFiles() {}

    /** A key row; a converter per call, because test and compaction threads create files at once. */
    static BinaryRow key(int k) {
        return new BinaryRowConverter(KEY_TYPES).toBinaryRow(new Object[] {k});
    }

    static int keyOf(BinaryRow row) {
        return row.intAt(0);
    }

    /** A file with no retractions and sequence numbers 0..0. */
    static DataFileMeta file(String name, int level, int minKey, int maxKey, long size) {
        return new DataFileMeta(name, size, size, key(minKey), key(maxKey), SimpleStats.EMPTY, SimpleStats.EMPTY,
                0, 0, 0, level, List.of(), null, 0L, null, null, null, null, null, null);
    }

    static DataFileMeta withSeq(DataFileMeta f, long minSeq, long maxSeq) {
        return new DataFileMeta(f.fileName(), f.fileSize(), f.rowCount(), f.minKey(), f.maxKey(), f.keyStats(),
                f.valueStats(), minSeq, maxSeq, f.schemaId(), f.level(), f.extraFiles(), f.creationTimeMillis(),
                f.deleteRowCount(), f.embeddedIndex(), f.fileSource(), f.valueStatsCols(), f.externalPath(),
                f.firstRowId(), f.writeCols());
    }

    static DataFileMeta withDeletes(DataFileMeta f, Long deleteRowCount) {
        return new DataFileMeta(f.fileName(), f.fileSize(), f.rowCount(), f.minKey(), f.maxKey(), f.keyStats(),
                f.valueStats(), f.minSequenceNumber(), f.maxSequenceNumber(), f.schemaId(), f.level(),
                f.extraFiles(), f.creationTimeMillis(), deleteRowCount, f.embeddedIndex(), f.fileSource(),
                f.valueStatsCols(), f.externalPath(), f.firstRowId(), f.writeCols());
    }

    static DataFileMeta withRows(DataFileMeta f, long rows) {
        return new DataFileMeta(f.fileName(), f.fileSize(), rows, f.minKey(), f.maxKey(), f.keyStats(),
                f.valueStats(), f.minSequenceNumber(), f.maxSequenceNumber(), f.schemaId(), f.level(),
                f.extraFiles(), f.creationTimeMillis(), f.deleteRowCount(), f.embeddedIndex(), f.fileSource(),
                f.valueStatsCols(), f.externalPath(), f.firstRowId(), f.writeCols());
    }

    /** A run of one file of {@code size} bytes on {@code level}; keys do not matter to strategies. */
    static LevelSortedRun run(int level, long size) {
        return new LevelSortedRun(level, SortedRun.of(file("L" + level + "-" + size, level, 0, 0, size)));
    }

    static List<LevelSortedRun> runs(LevelSortedRun... runs) {
        return List.of(runs);
    }

    static List<String> names(List<DataFileMeta> files) {
        List<String> names = new ArrayList<>();
        for (DataFileMeta f : files) {
            names.add(f.fileName());
        }
        return names;
    }

    /** File names of the first {@code count} runs. */
    static List<String> namesOfRuns(List<LevelSortedRun> runs, int count) {
        List<String> names = new ArrayList<>();
        for (LevelSortedRun r : runs.subList(0, count)) {
            names.addAll(names(r.run().files()));
        }
        return names;
    }
}
