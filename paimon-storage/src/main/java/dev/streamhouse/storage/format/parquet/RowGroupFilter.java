package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.util.Map;

/**
 * Decides from a row group's footer statistics whether a predicate over the read type may match
 * any of its rows. Statistics are converted to internal min/max rows of the read type's arity:
 * a column the file lacks is all null; a nested column, or one without trustworthy statistics, is
 * unknown (null min, max and null count), which the predicate treats as "may match".
 */
final class RowGroupFilter {
    private final RowType readType;
    private final Predicate predicate;
    /** Per read field: present in the file as a top-level primitive column. */
    private final boolean[] primitiveInFile;
    private final boolean[] inFile;

    RowGroupFilter(RowType readType, Predicate predicate, MessageType fileSchema) {
        this.readType = readType;
        this.predicate = predicate;
        int n = readType.fieldCount();
        this.primitiveInFile = new boolean[n];
        this.inFile = new boolean[n];
        for (int i = 0; i < n; i++) {
            String name = readType.field(i).name();
            inFile[i] = fileSchema.containsField(name);
            if (inFile[i]) {
                Type fileField = fileSchema.getType(name);
                primitiveInFile[i] = fileField.isPrimitive() && !readType.typeAt(i).root().isNested();
            }
        }
    }

    /** False only if the statistics prove that no row of the group satisfies the predicate. */
    boolean mayMatch(BlockMetaData block) {
        long rowCount = block.getRowCount();
        int n = readType.fieldCount();
        Object[] mins = new Object[n];
        Object[] maxs = new Object[n];
        Long[] nullCounts = new Long[n];
        Map<ColumnPath, ColumnChunkMetaData> columns = ParquetStats.columnsByPath(block);
        for (int i = 0; i < n; i++) {
            if (!inFile[i]) {
                nullCounts[i] = rowCount; // a missing column reads as null in every row
            } else if (primitiveInFile[i]) {
                ColumnChunkMetaData chunk = columns.get(ColumnPath.get(readType.field(i).name()));
                ParquetStats.ChunkStats stats = ParquetStats.chunkStats(readType.typeAt(i), chunk);
                nullCounts[i] = stats.nullCount();
                if (stats.rangeKnown()) {
                    mins[i] = stats.min();
                    maxs[i] = stats.max();
                }
            }
        }
        return predicate.test(rowCount, GenericRow.of(mins), GenericRow.of(maxs), nullCounts);
    }
}
