package dev.streamhouse.flink.cdc.mysql.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableChunkerTest {

    private static final KeyOrder LONG_KEYS = KeyOrder.of(TestTables.keyValue("t"));

    @Test
    void denseKeysSplitEvenlyIntoRangesCoveringEveryKey() {
        List<ChunkRange> ranges = TableChunker.evenRanges(BigInteger.valueOf(1), BigInteger.valueOf(1000), 1000, 100,
                false);
        assertThat(ranges).hasSize(10);
        assertThat(ranges.get(0)).isEqualTo(new ChunkRange(null, new Object[] {101L}));
        assertThat(ranges.get(9)).isEqualTo(new ChunkRange(new Object[] {901L}, null));
        for (long key = -5; key <= 1005; key++) {
            int containing = 0;
            for (ChunkRange r : ranges) {
                if (r.contains(new Object[] {key}, LONG_KEYS)) {
                    containing++;
                }
            }
            assertThat(containing).as("chunks containing key " + key).isEqualTo(1);
        }
    }

    @Test
    void theStepFollowsTheKeyDensity() {
        // keys 0..9999 for 1000 rows: ten key values per row, so a 100-row chunk spans 1000 keys
        List<ChunkRange> ranges = TableChunker.evenRanges(BigInteger.ZERO, BigInteger.valueOf(9_999), 1000, 100, false);
        assertThat(ranges).hasSize(10);
        assertThat(ranges.get(1)).isEqualTo(new ChunkRange(new Object[] {1000L}, new Object[] {2000L}));
    }

    @Test
    void smallTablesAreOneChunkAndSparseKeysAreNotSplitEvenly() {
        assertThat(TableChunker.evenRanges(BigInteger.ONE, BigInteger.valueOf(50), 50, 100, false))
                .containsExactly(ChunkRange.all());
        assertThat(TableChunker.evenRanges(BigInteger.ONE, BigInteger.valueOf(10_000_000), 1000, 100, false))
                .as("10,000 key values per row").isNull();
    }

    @Test
    void unsignedBigintBoundsAreDecimals() {
        BigInteger max = new BigInteger("18446744073709551615");
        List<ChunkRange> ranges = TableChunker.evenRanges(max.subtract(BigInteger.valueOf(999)), max, 1000, 500, true);
        assertThat(ranges).containsExactly(
                new ChunkRange(null, new Object[] {new BigDecimal(max.subtract(BigInteger.valueOf(499)))}),
                new ChunkRange(new Object[] {new BigDecimal(max.subtract(BigInteger.valueOf(499)))}, null));
    }
}
