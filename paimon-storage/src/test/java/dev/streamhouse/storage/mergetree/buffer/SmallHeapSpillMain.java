package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.math.BigInteger;
import java.nio.file.Path;

/**
 * Run by {@link WriteBufferSmallHeapITCase} in a JVM with a small heap: writes {@code totalBytes} of
 * records through a spilling write buffer of {@code bufferBytes}, then checks the merged output key by
 * key. Prints {@code OK ...} and exits 0, or prints {@code FAIL ...} and exits 1.
 *
 * <p>Record i has key {@code (i * STEP) mod K} (each key gets about 2.5 versions, spread over all
 * spilled runs), sequence number i, and kind DELETE when {@code i % 17 == 5}. The last version of key k is
 * therefore {@code i0 + K * floor((N - 1 - i0) / K)} with {@code i0 = k * STEP^-1 mod K}.
 */
public final class SmallHeapSpillMain {
    private static final long STEP = 1_000_003L;
    private static final String FILLER = "abcdefghijklmnopqrstuvwxyz0123456789".repeat(3);

    private SmallHeapSpillMain() {}

    static RowKind kindOf(long i) {
        return i % 17 == 5 ? RowKind.DELETE : RowKind.INSERT;
    }

    static String payload(long i) {
        String head = "p" + i + ":";
        return head + FILLER.substring(0, 80 - head.length());
    }

    public static void main(String[] args) throws Exception {
        long bufferBytes = Long.parseLong(args[0]);
        long totalBytes = Long.parseLong(args[1]);
        Path spillDirectory = Path.of(args[2]);
        try {
            System.out.println(run(bufferBytes, totalBytes, spillDirectory));
            System.exit(0);
        } catch (Throwable t) {
            System.out.println("FAIL " + t);
            t.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static String run(long bufferBytes, long totalBytes, Path spillDirectory) throws Exception {
        RowType keyType = RowType.of(DataTypes.BIGINT());
        RowType valueType = RowType.of(DataTypes.BIGINT(), DataTypes.BIGINT(), DataTypes.STRING(), DataTypes.INT());
        long maxHeap = Runtime.getRuntime().maxMemory();
        LastWinsMergeFunction mf = new LastWinsMergeFunction();
        try (WriteBuffer buffer = WriteBuffer.builder(keyType, valueType, new MemoryPool(bufferBytes))
                .spillTo(spillDirectory).build()) {
            // Every record has the same serialized size (payloads are 80 bytes): header, key (bitmap + long), value.
            ByteWriter sizer = new ByteWriter(256);
            new RowSerializer(valueType).serialize(GenericRow.of(0L, 0L, BinaryString.fromString(payload(0)), 0), sizer);
            long recordBytes = RecordLayout.HEADER_SIZE + 9 + sizer.position();
            long n = totalBytes / recordBytes;
            long written = 0;
            long k = n * 2 / 5;
            while (BigInteger.valueOf(k).gcd(BigInteger.valueOf(STEP)).intValue() != 1) {
                k++;
            }
            for (long i = 0; i < n; i++) {
                long key = (i * STEP) % k;
                GenericRow value = GenericRow.of(key, i, BinaryString.fromString(payload(i)), (int) (i % 1000));
                if (!buffer.put(i, kindOf(i), GenericRow.of(key), value)) {
                    throw new AssertionError("put " + i + " refused although spilling is unlimited");
                }
                written += recordBytes;
            }
            if (written < 4 * maxHeap) {
                throw new AssertionError("wrote only " + written + " bytes, not much more than the heap " + maxHeap);
            }
            int runs = buffer.spilledRunCount();
            long spilled = buffer.spilledBytes();
            long inverse = BigInteger.valueOf(STEP).modInverse(BigInteger.valueOf(k)).longValue();
            long expectedKey = 0;
            try (RecordReader<KeyValue> reader = buffer.mergedReader(mf)) {
                RecordIterator<KeyValue> it = reader.readBatch();
                for (KeyValue kv = it.next(); kv != null; kv = it.next()) {
                    check(kv, expectedKey, k, n, inverse);
                    expectedKey++;
                }
            }
            if (expectedKey != k) {
                throw new AssertionError("merged output has " + expectedKey + " keys, expected " + k);
            }
            if (mf.added != n) {
                throw new AssertionError("merge function saw " + mf.added + " versions, expected " + n);
            }
            return String.format("OK keys=%d records=%d writtenBytes=%d runs=%d spilledBytes=%d maxHeap=%d peakHeapUsed=%d",
                    k, n, written, runs, spilled, maxHeap, peakHeapUsed());
        }
    }

    private static void check(KeyValue kv, long key, long k, long n, long inverse) {
        long i0 = BigInteger.valueOf(key).multiply(BigInteger.valueOf(inverse)).mod(BigInteger.valueOf(k)).longValue();
        long last = i0 + k * ((n - 1 - i0) / k);
        GenericRow value = (GenericRow) kv.value();
        boolean ok = kv.key().longAt(0) == key
                && kv.sequenceNumber() == last
                && kv.valueKind() == kindOf(last)
                && value.longAt(0) == key
                && value.longAt(1) == last
                && value.stringAt(2).toString().equals(payload(last))
                && value.intAt(3) == (int) (last % 1000);
        if (!ok) {
            throw new AssertionError("key " + key + ": expected version " + last + " (" + kindOf(last) + "), got " + kv);
        }
    }

    private static long peakHeapUsed() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
