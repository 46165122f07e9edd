package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.PaimonRows;
import dev.streamhouse.e2e.oracle.TableSpec;

import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.source.Split;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The deletion-vector tables of the interop tests: their schema (two partitions, primary key (dt, id)),
 * random input, a read that ignores the vectors, and our stream of them.
 */
final class DeletionVectorTables {
    private DeletionVectorTables() {}

    /** {@code (dt, id, a, b, c)} with {@code deletion-vectors.enabled} and {@code options} on top. */
    static TableSpec spec(int buckets, String[] options) {
        TableSpec spec = TableSpec.of("dt", "STRING", "id", "INT", "a", "INT", "b", "STRING", "c", "BIGINT")
                .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", String.valueOf(buckets))
                .withOption("deletion-vectors.enabled", "true");
        for (int i = 0; i < options.length; i += 2) {
            spec = spec.withOption(options[i], options[i + 1]);
        }
        return spec;
    }

    /**
     * Random upserts (with NULLs) over 2 partitions x {@code keys} keys and, when asked, deletes of keys
     * written before ({@code written} records what was).
     */
    static List<CanonicalRow> batch(Random random, int size, int keys, boolean deletes, Set<String> written) {
        List<CanonicalRow> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String dt = random.nextBoolean() ? "2026-12-01" : "2026-12-02";
            int id = random.nextInt(keys);
            Integer a = random.nextInt(5) == 0 ? null : random.nextInt(100);
            String b = random.nextInt(4) == 0 ? null : "b" + random.nextInt(50);
            Long c = random.nextInt(5) == 0 ? null : (long) random.nextInt(1000);
            boolean delete = deletes && written.contains(dt + id) && random.nextInt(4) == 0;
            out.add(CanonicalRow.ofKind(delete ? Kind.DELETE : Kind.INSERT, dt, id, a, b, c));
            written.add(dt + id);
        }
        return out;
    }

    /** Paimon's batch plan of the table read raw file by file with the deletion files left out of its splits. */
    static List<CanonicalRow> naiveRead(PaimonOracle paimon, String db, String table) throws Exception {
        org.apache.paimon.table.Table t = paimon.table(db, table);
        org.apache.paimon.table.source.ReadBuilder rb = t.newReadBuilder();
        List<Split> splits = new ArrayList<>();
        for (Split s : rb.newScan().plan().splits()) {
            org.apache.paimon.table.source.DataSplit ds = (org.apache.paimon.table.source.DataSplit) s;
            splits.add(org.apache.paimon.table.source.DataSplit.builder().withSnapshot(ds.snapshotId())
                    .withPartition(ds.partition()).withBucket(ds.bucket()).withBucketPath(ds.bucketPath())
                    .withTotalBuckets(ds.totalBuckets()).withDataFiles(ds.dataFiles()).rawConvertible(true)
                    .isStreaming(false).build());
        }
        List<CanonicalRow> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(splits)) {
            reader.forEachRemaining(r -> rows.add(PaimonRows.toCanonical(r, t.rowType())));
        }
        return rows;
    }

    /** Our stream of the table with these options until it has passed the latest snapshot, all plans' rows. */
    static List<CanonicalRow> ourStream(OurStore ours, String db, String table, Map<String, String> options)
            throws Exception {
        List<CanonicalRow> out = new ArrayList<>();
        ours.streamPlansUntilLatest(db, table, options).forEach(out::addAll);
        return out;
    }
}
