package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.casting.ColumnCast;
import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import java.util.List;

/**
 * Presents a data file's value statistics in the positions of the current table schema (docs/format.md
 * §6.5): columns are matched by field id through the file's own schema, dense statistics by column
 * name. A column added after the file was written is all NULL. A column whose type was widened
 * since the file was written has its min/max converted with the same {@link ColumnCast} the reader
 * uses: every allowed cast is exact and order-preserving, so the converted values are still bounds
 * of the converted column. A column without statistics has unknown min/max and null count, which
 * never prunes.
 */
public final class FileStatsMapper {
    private final RowType tableType;
    private final SchemaCache schemas;

    public FileStatsMapper(RowType tableType, SchemaCache schemas) {
        this.tableType = tableType;
        this.schemas = schemas;
    }

    /** Min row, max row and null counts, all with the table's arity. */
    public record MappedStats(GenericRow min, GenericRow max, Long[] nullCounts) {}

    /** Whether the file may hold a row matching {@code filter} (a predicate over the table row). */
    public boolean mayMatch(Predicate filter, DataFileMeta file) {
        MappedStats s = map(file);
        return filter.test(file.rowCount(), s.min(), s.max(), s.nullCounts());
    }

    public MappedStats map(DataFileMeta file) {
        TableSchema fileSchema = schemas.schema(file.schemaId());
        List<DataField> fileFields = fileSchema.fields();
        List<String> statsCols = file.valueStatsCols() != null ? file.valueStatsCols() : fileSchema.fieldNames();
        SimpleStats stats = file.valueStats();
        int n = tableType.fieldCount();
        GenericRow min = new GenericRow(n);
        GenericRow max = new GenericRow(n);
        Long[] nulls = new Long[n];
        for (int i = 0; i < n; i++) {
            DataField tableField = tableType.field(i);
            DataField fileField = null;
            for (DataField f : fileFields) {
                if (f.id() == tableField.id()) {
                    fileField = f;
                    break;
                }
            }
            if (fileField == null) {
                // Column added after the file was written: every value in the file is NULL.
                min.setField(i, null);
                max.setField(i, null);
                nulls[i] = file.rowCount();
                continue;
            }
            int statsPos = statsCols.indexOf(fileField.name());
            boolean hasStats = statsPos >= 0 && statsPos < stats.minValues().arity();
            nulls[i] = statsPos >= 0 && stats.nullCounts() != null && statsPos < stats.nullCounts().length
                    ? stats.nullCounts()[statsPos] : null;
            if (!hasStats || !InternalRowUtils.isOrderable(tableField.type())) {
                continue;
            }
            ColumnCast cast = castOrNull(fileField, tableField);
            if (cast == null) {
                nulls[i] = null;
                continue;
            }
            FieldGetter g = InternalRowUtils.fieldGetter(cast.fileReadType(), statsPos);
            min.setField(i, convert(cast, g.get(stats.minValues())));
            max.setField(i, convert(cast, g.get(stats.maxValues())));
        }
        return new MappedStats(min, max, nulls);
    }

    /** The cast from the written to the current type, or null if there is none (stats then unknown). */
    private static ColumnCast castOrNull(DataField fileField, DataField tableField) {
        if (ColumnCast.refusal(fileField.type(), tableField.type()).isPresent()) {
            return null;
        }
        return ColumnCast.of(fileField.type(), tableField.type());
    }

    private static Object convert(ColumnCast cast, Object value) {
        return value == null ? null : cast.apply(value);
    }
}
