package dev.streamhouse.storage.stats;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.format.FieldStats;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.StatsOptions;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a format writer's raw column statistics into the {@code _VALUE_STATS} of a data file, applying
 * the per-column stats modes and, in dense mode, leaving out columns without any statistics
 * (docs/format.md §6.5).
 */
public final class FileStatsBuilder {
    private final RowType rowType;
    private final StatsMode[] modes;
    private final boolean dense;

    public FileStatsBuilder(RowType rowType, StatsMode[] modes, boolean dense) {
        if (modes.length != rowType.fieldCount()) {
            throw new IllegalArgumentException("One stats mode per field is needed");
        }
        this.rowType = rowType;
        this.modes = modes.clone();
        this.dense = dense;
    }

    /** Modes from table options: {@code metadata.stats-mode}, per-column overrides, keep-first-n. */
    public static FileStatsBuilder fromOptions(RowType rowType, Options options) {
        StatsMode global = StatsMode.parse(options.get(StatsOptions.STATS_MODE), StatsOptions.STATS_MODE.key());
        int keepFirst = options.get(StatsOptions.STATS_KEEP_FIRST_N_COLUMNS);
        StatsMode[] modes = new StatsMode[rowType.fieldCount()];
        for (int i = 0; i < modes.length; i++) {
            String name = rowType.field(i).name();
            String key = StatsOptions.fieldStatsModeKey(name);
            String perField = options.get(key);
            modes[i] = perField != null ? StatsMode.parse(perField, key) : global;
            if (keepFirst >= 0 && i >= keepFirst) {
                modes[i] = StatsMode.NONE;
            }
        }
        return new FileStatsBuilder(rowType, modes, options.get(StatsOptions.STATS_DENSE_STORE));
    }

    /** Statistics to store and the names of the columns they cover (null = all columns). */
    public record Result(SimpleStats stats, List<String> columns) {}

    public Result build(FieldStats[] raw) {
        List<DataField> included = new ArrayList<>();
        List<Object> mins = new ArrayList<>();
        List<Object> maxs = new ArrayList<>();
        List<Long> nulls = new ArrayList<>();
        for (int i = 0; i < rowType.fieldCount(); i++) {
            FieldStats s = apply(raw[i], modes[i], rowType.typeAt(i));
            if (dense && s.min() == null && s.max() == null && s.nullCount() == null) {
                continue;
            }
            included.add(rowType.field(i));
            mins.add(s.min());
            maxs.add(s.max());
            nulls.add(s.nullCount());
        }
        List<DataType> types = new ArrayList<>();
        for (DataField f : included) {
            types.add(f.type().nullable());
        }
        BinaryRowConverter converter = new BinaryRowConverter(types);
        BinaryRow min = converter.toBinaryRow(mins.toArray());
        BinaryRow max = converter.toBinaryRow(maxs.toArray());
        SimpleStats stats = new SimpleStats(min, max, nulls.toArray(new Long[0]));
        List<String> columns = null;
        if (included.size() != rowType.fieldCount()) {
            columns = new ArrayList<>();
            for (DataField f : included) {
                columns.add(f.name());
            }
        }
        return new Result(stats, columns);
    }

    private static FieldStats apply(FieldStats raw, StatsMode mode, DataType type) {
        if (type.root().isNested()) {
            return FieldStats.UNKNOWN;
        }
        switch (mode.kind()) {
            case NONE:
                return FieldStats.UNKNOWN;
            case COUNTS:
                return new FieldStats(null, null, raw.nullCount());
            case FULL:
                return raw;
            case TRUNCATE:
                if (type.root() != DataTypeRoot.CHAR && type.root() != DataTypeRoot.VARCHAR
                        || raw.min() == null || raw.max() == null) {
                    return raw;
                }
                BinaryString max = StringTruncation.truncateMax((BinaryString) raw.max(), mode.length());
                if (max == null) {
                    return new FieldStats(null, null, raw.nullCount());
                }
                return new FieldStats(StringTruncation.truncateMin((BinaryString) raw.min(), mode.length()),
                        max, raw.nullCount());
            default:
                throw new IllegalStateException("Unknown stats mode " + mode);
        }
    }
}
