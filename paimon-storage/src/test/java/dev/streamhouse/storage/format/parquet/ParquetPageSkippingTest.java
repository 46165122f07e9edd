package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
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
import java.util.stream.Collectors;

/**
 * One row group of 50,000 rows in pages of 1,000: a filter on a sorted column reads only the pages
 * its page index admits, and always returns every matching row; filters that cannot be translated
 * exactly read everything.
 */
class ParquetPageSkippingTest {
    private static final int ROWS = 50_000;
    private static final int PAGE_ROWS = 1_000;
    private static final RowType TYPE = new RowType(List.of(
            FIELD(0, "id", BIGINT().notNull()),
            FIELD(1, "name", STRING()),
            FIELD(2, "bucket", INT()),
            FIELD(3, "d", DOUBLE())));

    @TempDir
    java.nio.file.Path tmp;

    private Path path;
    private final PredicateBuilder pb = new PredicateBuilder(TYPE);

    @BeforeEach
    void writeFile() throws Exception {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            // 'bucket' is null in the first page only; 'd' is sorted like id
            rows.add(GenericRow.of((long) i, BinaryString.fromString(String.format("n%06d", i)),
                    i < PAGE_ROWS ? null : i / 7_000, i * 0.5));
        }
        path = new Path(tmp.resolve("paged.parquet").toString());
        ParquetTestFiles.write(path, TYPE, Options.of("parquet.page.row.count.limit", String.valueOf(PAGE_ROWS)), rows);
        assertThat(ParquetTestFiles.footer(path).getBlocks()).hasSize(1);
    }

    private List<InternalRow> read(Predicate filter) throws Exception {
        return ParquetTestFiles.read(path, TYPE, filter);
    }

    /** The rows the predicate accepts, which a read must always contain. */
    private static List<Long> matching(List<InternalRow> rows, Predicate filter) {
        return rows.stream().filter(filter::test).map(r -> r.longAt(0)).collect(Collectors.toList());
    }

    private List<Long> allMatching(Predicate filter) throws Exception {
        return matching(read(null), filter);
    }

    @Test
    void equalityOnASortedColumnReadsAboutOnePage() throws Exception {
        Predicate filter = pb.equal(0, 12_345L);
        List<InternalRow> rows = read(filter);
        assertThat(rows.size()).isBetween(1, 2 * PAGE_ROWS);
        assertThat(matching(rows, filter)).containsExactly(12_345L);
        // all columns of the rows read are whole and aligned
        assertThat(rows).allSatisfy(r -> assertThat(r.stringAt(1).toString())
                .isEqualTo(String.format("n%06d", r.longAt(0))));
    }

    @Test
    void everyTranslatedShapeKeepsAllMatchingRows() throws Exception {
        List<Predicate> filters = List.of(
                pb.in(0, List.of(5L, 30_000L, 49_999L)),
                pb.lessThan(0, 1_500L),
                pb.greaterOrEqual(0, 48_500L),
                PredicateBuilder.or(pb.equal(0, 7L), pb.equal(1, BinaryString.fromString("n040000"))),
                PredicateBuilder.and(pb.greaterThan(0, 20_000L), pb.lessOrEqual(1, BinaryString.fromString("n021000"))),
                pb.equal(2, 3),
                pb.isNull(2),
                pb.isNotNull(2));
        for (Predicate filter : filters) {
            List<InternalRow> rows = read(filter);
            assertThat(matching(rows, filter)).as("%s", filter).isEqualTo(allMatching(filter)).isNotEmpty();
            assertThat(rows.size()).as("%s reads fewer rows", filter).isLessThan(ROWS);
        }
    }

    @Test
    void untranslatableFiltersReadEveryPage() throws Exception {
        // doubles are left to row-group statistics; an OR with such a branch cannot skip pages
        List<Predicate> filters = List.of(
                pb.equal(3, 100.0),
                PredicateBuilder.or(pb.equal(0, 7L), pb.equal(3, 100.0)));
        for (Predicate filter : filters) {
            List<InternalRow> rows = read(filter);
            assertThat(rows).as("%s", filter).hasSize(ROWS);
            assertThat(matching(rows, filter)).isNotEmpty();
        }
        // an AND keeps the conjuncts it can translate
        Predicate and = PredicateBuilder.and(pb.equal(0, 200L), pb.equal(3, 100.0));
        assertThat(read(and).size()).isLessThanOrEqualTo(PAGE_ROWS);
        assertThat(matching(read(and), and)).containsExactly(200L);
    }
}
