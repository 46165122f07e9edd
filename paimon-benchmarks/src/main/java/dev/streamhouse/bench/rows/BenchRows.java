package dev.streamhouse.bench.rows;

import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * Row number {@code n} of the write workloads: {@code id} uniform in [1, keys], random {@code i}, {@code b},
 * {@code d}, a 20-character lowercase hex string {@code s} and a {@code ts} within the hour before a
 * fixed instant. Every value is a function of {@code n} alone (SplitMix64 of the row number), so both
 * implementations and every run write the same rows, whatever the parallelism.
 *
 * <p>Why not Flink's datagen connector: its random strings (commons-math's {@code nextHexString}, a
 * {@code StringBuilder} and a {@code String} per value) took 42 % of the CPU samples of a
 * {@code pk-upsert-write} job of either store on 2 cores, so the job measured the generator about as
 * much as the store. This costs a few hashes and one 20-byte array per row.
 */
final class BenchRows implements GeneratorFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;
    /** 2026-01-01T00:00:00Z: {@code ts} lies in the hour before it. */
    private static final long TS_END_MILLIS = 1_767_225_600_000L;
    private static final long HOUR_MILLIS = 3_600_000L;
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final long keys;

    BenchRows(long keys) {
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be at least 1, not " + keys);
        }
        this.keys = keys;
    }

    @Override
    public RowData map(Long n) {
        long base = n * 6;
        long r1 = mix(base);
        long r2 = mix(base + 1);
        long r3 = mix(base + 2);
        long r4 = mix(base + 3);
        long r5 = mix(base + 4);
        long r6 = mix(base + 5);
        long id = 1 + Long.remainderUnsigned(r1, keys);
        int i = (int) (r2 >>> 32);
        long ts = TS_END_MILLIS - Long.remainderUnsigned(r2 & 0xFFFF_FFFFL, HOUR_MILLIS);
        long b = r3;
        double d = (r4 >>> 11) * 0x1.0p-53 * 1_000_000d;
        byte[] s = new byte[20];
        for (int k = 0; k < 16; k++) {
            s[k] = HEX[(int) (r5 >>> (4 * k)) & 15];
        }
        for (int k = 16; k < 20; k++) {
            s[k] = HEX[(int) (r6 >>> (4 * (k - 16))) & 15];
        }
        return GenericRowData.of(id, i, b, d, StringData.fromBytes(s), TimestampData.fromEpochMillis(ts));
    }

    /** SplitMix64's finaliser over the golden-ratio sequence: a good 64-bit hash of {@code x}. */
    static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
