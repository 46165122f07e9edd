package dev.streamhouse.storage.table.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Statistics of files written under older schemas, matched to the current columns by field id. */
class FileStatisticsTest {
    private static final List<DataField> V0 = List.of(
            new DataField(0, "id", DataTypes.INT()),
            new DataField(1, "name", DataTypes.STRING()));
    /** {@code name} renamed to {@code customer}, {@code price} added. */
    private static final List<DataField> V1 = List.of(
            new DataField(0, "id", DataTypes.INT()),
            new DataField(1, "customer", DataTypes.STRING()),
            new DataField(2, "price", DataTypes.DOUBLE()));

    private static TableSchema schema(long id, List<DataField> fields) {
        return new TableSchema(3, id, fields, fields.size() - 1, List.of(), List.of(), Map.of(), null, 0L);
    }

    private final FileStatistics statistics = new FileStatistics(V1, id -> id == 0 ? schema(0, V0) : schema(1, V1));

    private static BinaryRow row(List<DataType> types, Object... values) {
        return new BinaryRowConverter(types).toBinaryRow(values);
    }

    private static DataFileMeta file(SimpleStats stats, List<String> statsColumns) {
        return new DataFileMeta("data-1.parquet", 100, 5, BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, SimpleStats.EMPTY,
                stats, 0, 4, 0, 0, List.of(), 0L, 0L, null, FileSource.APPEND, statsColumns, null, null, null);
    }

    @SuppressWarnings("unchecked")
    private static <V> Map<String, V> map(Object... keyValues) {
        Map<String, V> out = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            out.put((String) keyValues[i], (V) keyValues[i + 1]);
        }
        return out;
    }

    @Test
    void renamedColumnsKeepTheirStatisticsAndAddedColumnsHaveNone() {
        List<DataType> types = List.of(DataTypes.INT(), DataTypes.STRING());
        SimpleStats stats = new SimpleStats(row(types, 1, BinaryString.fromString("a")),
                row(types, 5, BinaryString.fromString("e")), new Long[] {0L, 2L});

        FileStatistics.Maps maps = statistics.of(file(stats, null));

        assertThat(maps.nullCounts()).containsExactlyEntriesOf(FileStatisticsTest.<Long>map("customer", 2L, "id", 0L, "price", null));
        assertThat(maps.minValues()).containsExactlyEntriesOf(FileStatisticsTest.<String>map("customer", "a", "id", "1", "price", null));
        assertThat(maps.maxValues()).containsExactlyEntriesOf(FileStatisticsTest.<String>map("customer", "e", "id", "5", "price", null));
        assertThat(maps.minValues().toString()).isEqualTo("{customer=a, id=1, price=null}");
    }

    @Test
    void statisticsOfSomeColumnsOnly() {
        List<DataType> types = List.of(DataTypes.STRING());
        SimpleStats stats = new SimpleStats(row(types, BinaryString.fromString("a")),
                row(types, BinaryString.fromString("e")), new Long[] {1L});

        FileStatistics.Maps maps = statistics.of(file(stats, List.of("name")));

        assertThat(maps.nullCounts().toString()).isEqualTo("{customer=1, id=null, price=null}");
        assertThat(maps.maxValues().toString()).isEqualTo("{customer=e, id=null, price=null}");
    }

    @Test
    void unknownNullCountsAreNull() {
        List<DataType> types = List.of(DataTypes.INT(), DataTypes.STRING());
        SimpleStats stats = new SimpleStats(row(types, null, null), row(types, null, null), null);
        assertThat(statistics.of(file(stats, null)).nullCounts().toString())
                .isEqualTo("{customer=null, id=null, price=null}");
    }
}
