package dev.streamhouse.storage.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.columnar.ColumnVector;
import dev.streamhouse.storage.data.columnar.ColumnarBatch;
import dev.streamhouse.storage.data.columnar.IntVector;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * Selections of a {@link ColumnarRowIterator}: {@link ColumnarRowIterator#keepOnly} and
 * {@link ColumnarRowIterator#skipRows}, alone and stacked in any order, keep exactly the rows a
 * naive filter keeps, in row-id order, through {@link ColumnarRowIterator#nextRowId} and
 * {@link ColumnarRowIterator#next} alike.
 */
class ColumnarRowIteratorTest {
    private static final RowType TYPE = RowType.of(DataTypes.INT());

    /** A batch of {@code n} rows whose only column holds 1000 + the row id. */
    private static ColumnarRowIterator batch(int n) {
        IntVector values = new IntVector(n);
        for (int i = 0; i < n; i++) {
            values.values()[i] = 1000 + i;
        }
        return new ColumnarRowIterator(new ColumnarBatch(TYPE, new ColumnVector[] {values}, n, 0L), null);
    }

    private static List<Integer> ids(ColumnarRowIterator it) {
        List<Integer> out = new ArrayList<>();
        for (int id = it.nextRowId(); id >= 0; id = it.nextRowId()) {
            out.add(id);
        }
        return out;
    }

    private static List<Integer> values(ColumnarRowIterator it) {
        List<Integer> out = new ArrayList<>();
        for (InternalRow row = it.next(); row != null; row = it.next()) {
            out.add(row.intAt(0) - 1000);
        }
        return out;
    }

    private static List<Integer> naive(int n, IntPredicate keep) {
        List<Integer> out = new ArrayList<>();
        IntStream.range(0, n).filter(keep).forEach(out::add);
        return out;
    }

    @Test
    void withoutSelectionEveryRow() {
        assertThat(ids(batch(5))).containsExactly(0, 1, 2, 3, 4);
        assertThat(batch(5).size()).isEqualTo(5);
        assertThat(ids(batch(0))).isEmpty();
    }

    @Test
    void skipRowsLeavesOutExactlyThoseIds() {
        assertThat(ids(batch(8).skipRows(new int[] {0, 3, 4, 7, 99}, 4))).containsExactly(1, 2, 5, 6);
        assertThat(values(batch(8).skipRows(new int[] {0, 3, 4, 7}, 4))).containsExactly(1, 2, 5, 6);
        assertThat(ids(batch(3).skipRows(new int[] {0, 1, 2}, 3))).isEmpty();
        ColumnarRowIterator all = batch(3);
        assertThat(all.skipRows(new int[] {1}, 0)).isSameAs(all);
    }

    @Test
    void stackedSelectionsInAnyOrderKeepWhatANaiveFilterKeeps() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            int n = random.nextInt(2000);
            boolean[] deleted = new boolean[n];
            int[] skipped = new int[n];
            int count = 0;
            for (int i = 0; i < n; i++) {
                if (random.nextInt(4) == 0) {
                    deleted[i] = true;
                    skipped[count++] = i;
                }
            }
            int modulo = 2 + random.nextInt(5);
            IntPredicate filter = id -> id % modulo != 1;
            List<Integer> expected = naive(n, id -> !deleted[id] && filter.test(id));
            int[] skip = Arrays.copyOf(skipped, count);
            int c = count;
            assertThat(ids(batch(n).skipRows(skip, c).keepOnly(filter))).isEqualTo(expected);
            assertThat(ids(batch(n).keepOnly(filter).skipRows(skip, c))).isEqualTo(expected);
            assertThat(values(batch(n).keepOnly(filter).skipRows(skip, c).keepOnly(id -> true))).isEqualTo(expected);
            ColumnarRowIterator twice = batch(n).skipRows(skip, c).skipRows(skip, c).keepOnly(filter);
            assertThat(twice.size()).isEqualTo(expected.size());
            assertThat(ids(twice)).isEqualTo(expected);
        }
    }

    @Test
    void keepOnlyTestsEachRowOnceInRowIdOrder() {
        List<Integer> tested = new ArrayList<>();
        ColumnarRowIterator it = batch(6).skipRows(new int[] {2}, 1).keepOnly(id -> {
            tested.add(id);
            return id != 4;
        });
        assertThat(tested).containsExactly(0, 1, 3, 4, 5);
        assertThat(ids(it)).containsExactly(0, 1, 3, 5);
    }

    @Test
    void derivedBatchesKeepTheSelection() {
        ColumnarRowIterator it = batch(4).skipRows(new int[] {1}, 1)
                .withBatch(b -> b.withVectors(b.type(), new ColumnVector[] {b.vector(0)}));
        assertThat(values(it)).containsExactly(0, 2, 3);
    }
}
