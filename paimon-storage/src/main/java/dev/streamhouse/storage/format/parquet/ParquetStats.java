package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.format.FieldStats;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns Parquet column-chunk statistics into internal min/max values and null counts (docs/format.md §6.5).
 *
 * <p>Only top-level primitive columns get statistics. BINARY/VARBINARY and INT96 timestamps get a
 * null count but no min/max. A float/double min or max that is NaN makes the range unknown; a zero
 * bound is widened to cover both signed zeros. Nothing here truncates.
 */
final class ParquetStats {
    private ParquetStats() {}

    /**
     * Statistics of one column chunk. {@code rangeKnown} says whether {@code min}/{@code max} bound
     * every non-null value; both are null with a known range when all values are null.
     */
    record ChunkStats(Object min, Object max, Long nullCount, boolean rangeKnown) {
        static final ChunkStats UNKNOWN = new ChunkStats(null, null, null, false);
    }

    /** Per-column statistics of a written file, aggregated over its row groups, in row type order. */
    static FieldStats[] fileStats(RowType rowType, ParquetMetadata footer) {
        List<BlockMetaData> blocks = footer.getBlocks();
        FieldStats[] out = new FieldStats[rowType.fieldCount()];
        for (int i = 0; i < out.length; i++) {
            DataField field = rowType.field(i);
            if (field.type().root().isNested()) {
                out[i] = FieldStats.UNKNOWN;
                continue;
            }
            ColumnPath path = ColumnPath.get(field.name());
            ChunkStats total = new ChunkStats(null, null, 0L, true);
            for (BlockMetaData block : blocks) {
                total = merge(total, chunkStats(field.type(), findColumn(block, path)), field.type());
            }
            out[i] = new FieldStats(total.rangeKnown ? total.min : null, total.rangeKnown ? total.max : null,
                    total.nullCount);
        }
        return out;
    }

    /** The chunks of a row group by top-level column path. */
    static Map<ColumnPath, ColumnChunkMetaData> columnsByPath(BlockMetaData block) {
        Map<ColumnPath, ColumnChunkMetaData> byPath = new HashMap<>();
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            byPath.put(chunk.getPath(), chunk);
        }
        return byPath;
    }

    private static ColumnChunkMetaData findColumn(BlockMetaData block, ColumnPath path) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            if (chunk.getPath().equals(path)) {
                return chunk;
            }
        }
        return null;
    }

    private static ChunkStats merge(ChunkStats a, ChunkStats b, DataType type) {
        Long nulls = a.nullCount == null || b.nullCount == null ? null : a.nullCount + b.nullCount;
        if (!a.rangeKnown || !b.rangeKnown) {
            return new ChunkStats(null, null, nulls, false);
        }
        Object min = a.min == null ? b.min
                : b.min == null ? a.min : InternalRowUtils.compare(a.min, b.min, type) <= 0 ? a.min : b.min;
        Object max = a.max == null ? b.max
                : b.max == null ? a.max : InternalRowUtils.compare(a.max, b.max, type) >= 0 ? a.max : b.max;
        return new ChunkStats(min, max, nulls, true);
    }

    /**
     * Statistics of one chunk of a top-level primitive column read as {@code type}; unknown when the
     * chunk is missing or has no statistics.
     */
    static ChunkStats chunkStats(DataType type, ColumnChunkMetaData chunk) {
        Statistics<?> stats = chunk == null ? null : chunk.getStatistics();
        if (stats == null || stats.isEmpty()) {
            return ChunkStats.UNKNOWN;
        }
        Long nulls = stats.isNumNullsSet() ? stats.getNumNulls() : null;
        if (!stats.hasNonNullValue()) {
            // no min/max: trustworthy only if every value is null
            boolean allNull = nulls != null && nulls == chunk.getValueCount();
            return new ChunkStats(null, null, nulls, allNull);
        }
        Object min = toInternal(type, chunk.getPrimitiveType(), stats.genericGetMin());
        Object max = toInternal(type, chunk.getPrimitiveType(), stats.genericGetMax());
        if (min == null || max == null) {
            return new ChunkStats(null, null, nulls, false);
        }
        if (min instanceof Float) {
            float lo = (Float) min;
            float hi = (Float) max;
            if (Float.isNaN(lo) || Float.isNaN(hi)) {
                return new ChunkStats(null, null, nulls, false);
            }
            min = lo == 0.0f ? -0.0f : lo;
            max = hi == 0.0f ? 0.0f : hi;
        } else if (min instanceof Double) {
            double lo = (Double) min;
            double hi = (Double) max;
            if (Double.isNaN(lo) || Double.isNaN(hi)) {
                return new ChunkStats(null, null, nulls, false);
            }
            min = lo == 0.0d ? -0.0d : lo;
            max = hi == 0.0d ? 0.0d : hi;
        }
        return new ChunkStats(min, max, nulls, true);
    }

    /**
     * A Parquet statistics value (Integer, Long, Float, Double, Boolean or Binary) of a column of
     * physical type {@code physical} as the internal value of {@code type}; null when the type has no
     * usable min/max.
     */
    static Object toInternal(DataType type, PrimitiveType physical, Object value) {
        PrimitiveTypeName name = physical.getPrimitiveTypeName();
        switch (type.root()) {
            case BOOLEAN:
                return name == PrimitiveTypeName.BOOLEAN ? value : null;
            case TINYINT:
                return name == PrimitiveTypeName.INT32 ? (byte) (int) (Integer) value : null;
            case SMALLINT:
                return name == PrimitiveTypeName.INT32 ? (short) (int) (Integer) value : null;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return name == PrimitiveTypeName.INT32 ? value : null;
            case BIGINT:
                return name == PrimitiveTypeName.INT64 ? value : null;
            case FLOAT:
                return name == PrimitiveTypeName.FLOAT ? value : null;
            case DOUBLE:
                return name == PrimitiveTypeName.DOUBLE ? value : null;
            case CHAR:
            case VARCHAR:
                return name == PrimitiveTypeName.BINARY ? BinaryString.fromBytes(((Binary) value).getBytes()) : null;
            case DECIMAL:
                return decimal((DecimalType) type, physical, value);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                if (name != PrimitiveTypeName.INT64) {
                    return null; // INT96 has no defined order
                }
                int precision = ((TimestampType) type).precision();
                return ParquetTimestamps.fromInt64((Long) value, ParquetTimestamps.int64Unit(physical, precision));
            default:
                return null; // BINARY/VARBINARY: no min/max by design; nested types: none
        }
    }

    private static Decimal decimal(DecimalType type, PrimitiveType physical, Object value) {
        LogicalTypeAnnotation annotation = physical.getLogicalTypeAnnotation();
        if (annotation instanceof DecimalLogicalTypeAnnotation
                && ((DecimalLogicalTypeAnnotation) annotation).getScale() != type.scale()) {
            return null;
        }
        switch (physical.getPrimitiveTypeName()) {
            case INT32:
                return Decimal.fromUnscaledLong((Integer) value, type.precision(), type.scale());
            case INT64:
                return Decimal.fromUnscaledLong((Long) value, type.precision(), type.scale());
            case BINARY:
            case FIXED_LEN_BYTE_ARRAY:
                return Decimal.fromUnscaledBytes(((Binary) value).getBytes(), type.precision(), type.scale());
            default:
                return null;
        }
    }
}
