package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

class ParquetRowGroupSkippingTest {
    private static final int ROWS = 20_000;
    private static final RowType TYPE = new RowType(List.of(
            FIELD(0, "id", BIGINT().notNull()),
            FIELD(1, "name", STRING()),
            FIELD(2, "payload", BYTES()),
            FIELD(3, "sometimes", INT())));

    @TempDir
    java.nio.file.Path tmp;

    private Path path;
    private int rowGroups;

    @BeforeEach
    void writeFile() throws Exception {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            // 'sometimes' is null in the first half, so the first row groups hold only nulls there
            rows.add(GenericRow.of((long) i, BinaryString.fromString(String.format("n%06d", i)),
                    new byte[] {(byte) i}, i < ROWS / 2 ? null : i));
        }
        path = new Path(tmp.resolve("sorted.parquet").toString());
        ParquetTestFiles.write(path, TYPE, Options.of("file.block-size", "8 kb"), rows);
        rowGroups = ParquetTestFiles.footer(path).getBlocks().size();
        assertThat(rowGroups).isGreaterThan(10);
    }

    private List<List<InternalRow>> read(RowType readType, Predicate filter) throws Exception {
        return ParquetTestFiles.readBatches(path, readType, filter);
    }

    @Test
    void selectiveFilterReadsOnlyTheMatchingRowGroup() throws Exception {
        Predicate filter = new PredicateBuilder(TYPE).equal(0, 12_345L);

        List<List<InternalRow>> batches = read(TYPE, filter);

        assertThat(batches).hasSize(1);
        List<InternalRow> rows = batches.get(0);
        assertThat(rows.size()).isLessThan(ROWS / 10);
        // rows are not filtered individually, but the matching row is among them
        assertThat(rows).anySatisfy(r -> assertThat(r.longAt(0)).isEqualTo(12_345L));
    }

    @Test
    void rangeFilterOnStringsKeepsOverlappingRowGroups() throws Exception {
        Predicate filter = new PredicateBuilder(TYPE).greaterOrEqual(1, "n019000");

        List<InternalRow> rows = read(TYPE, filter).stream().flatMap(List::stream).toList();

        assertThat(rows.size()).isBetween(1_000, ROWS / 5);
        assertThat(rows.get(rows.size() - 1).longAt(0)).isEqualTo(ROWS - 1L);
        assertThat(rows).allSatisfy(r -> assertThat(r.longAt(0)).isGreaterThan(17_000L));
    }

    @Test
    void nullCountsPruneAllNullRowGroups() throws Exception {
        Predicate filter = new PredicateBuilder(TYPE).isNotNull(3);

        List<InternalRow> rows = read(TYPE, filter).stream().flatMap(List::stream).toList();

        assertThat(rows.size()).isBetween(ROWS / 2, ROWS / 2 + ROWS / 10);
        assertThat(rows).allSatisfy(r -> assertThat(r.longAt(0)).isGreaterThan(ROWS / 2 - ROWS / 10L));
    }

    @Test
    void filterOnAColumnMissingFromTheFileSeesOnlyNulls() throws Exception {
        RowType readType = new RowType(List.of(FIELD(0, "id", BIGINT().notNull()), FIELD(9, "added", INT())));
        PredicateBuilder builder = new PredicateBuilder(readType);

        assertThat(read(readType, builder.equal(1, 3))).isEmpty();
        assertThat(read(readType, builder.isNull(1)).stream().mapToInt(List::size).sum()).isEqualTo(ROWS);
    }

    @Test
    void unknownStatisticsNeverPrune() throws Exception {
        // binary columns have no min/max, so a filter on them must keep every row group
        Predicate filter = new PredicateBuilder(TYPE).equal(2, new byte[] {1});
        assertThat(read(TYPE, filter)).hasSize(rowGroups);
        assertThat(read(TYPE, null)).hasSize(rowGroups);
    }

    @Test
    void filterThatMatchesNothingReturnsNoBatches() throws Exception {
        assertThat(read(TYPE, new PredicateBuilder(TYPE).greaterThan(0, (long) ROWS))).isEmpty();
    }
}
