package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.stats.SimpleStats;

import java.util.List;

/**
 * Metadata of one data (or changelog) file, the {@code _FILE} record of a manifest entry (docs/format.md
 * §5.4). Nullable components: {@code creationTimeMillis}, {@code deleteRowCount},
 * {@code embeddedIndex}, {@code fileSource}, {@code valueStatsCols}, {@code externalPath},
 * {@code firstRowId}, {@code writeCols}.
 *
 * @param creationTimeMillis the writer's local wall-clock time encoded as if it were UTC
 * @param valueStatsCols names of the columns in {@code valueStats}; null means all columns of the
 *     file's schema
 */
public record DataFileMeta(
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
        List<String> writeCols) implements java.io.Serializable {

    public DataFileMeta {
        extraFiles = List.copyOf(extraFiles);
        valueStatsCols = valueStatsCols == null ? null : List.copyOf(valueStatsCols);
        writeCols = writeCols == null ? null : List.copyOf(writeCols);
    }

    /** A new file of an append table (no key, level 0). */
    public static DataFileMeta forAppend(
            String fileName, long fileSize, long rowCount, SimpleStats valueStats,
            long minSequenceNumber, long maxSequenceNumber, long schemaId, Long creationTimeMillis,
            FileSource fileSource, List<String> valueStatsCols) {
        return new DataFileMeta(fileName, fileSize, rowCount, BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW,
                SimpleStats.EMPTY, valueStats, minSequenceNumber, maxSequenceNumber, schemaId, 0, List.of(),
                creationTimeMillis, 0L, null, fileSource, valueStatsCols, null, null, null);
    }

    /** The same file at another level (an "upgrade": same name and content). */
    public DataFileMeta upgrade(int newLevel) {
        return new DataFileMeta(fileName, fileSize, rowCount, minKey, maxKey, keyStats, valueStats,
                minSequenceNumber, maxSequenceNumber, schemaId, newLevel, extraFiles, creationTimeMillis,
                deleteRowCount, embeddedIndex, fileSource, valueStatsCols, externalPath, firstRowId, writeCols);
    }

    /** {@code _DELETE_ROW_COUNT} with null read as 0, as Paimon does. */
    public long deleteRowCountOrZero() {
        return deleteRowCount == null ? 0 : deleteRowCount;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DataFileMeta)) {
            return false;
        }
        DataFileMeta t = (DataFileMeta) o;
        return fileName.equals(t.fileName) && fileSize == t.fileSize && rowCount == t.rowCount
                && minKey.equals(t.minKey) && maxKey.equals(t.maxKey) && keyStats.equals(t.keyStats)
                && valueStats.equals(t.valueStats) && minSequenceNumber == t.minSequenceNumber
                && maxSequenceNumber == t.maxSequenceNumber && schemaId == t.schemaId && level == t.level
                && extraFiles.equals(t.extraFiles)
                && java.util.Objects.equals(creationTimeMillis, t.creationTimeMillis)
                && java.util.Objects.equals(deleteRowCount, t.deleteRowCount)
                && java.util.Arrays.equals(embeddedIndex, t.embeddedIndex)
                && fileSource == t.fileSource
                && java.util.Objects.equals(valueStatsCols, t.valueStatsCols)
                && java.util.Objects.equals(externalPath, t.externalPath)
                && java.util.Objects.equals(firstRowId, t.firstRowId)
                && java.util.Objects.equals(writeCols, t.writeCols);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(fileName, fileSize, rowCount, level, schemaId);
    }

    @Override
    public String toString() {
        return "DataFileMeta{" + fileName + ", size=" + fileSize + ", rows=" + rowCount + ", level=" + level
                + ", seq=" + minSequenceNumber + ".." + maxSequenceNumber + ", schema=" + schemaId + "}";
    }
}
