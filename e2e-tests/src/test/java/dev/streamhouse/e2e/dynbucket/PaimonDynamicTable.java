package dev.streamhouse.e2e.dynbucket;

import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.bucket.dynamic.HashIndexFile;
import dev.streamhouse.storage.bucket.dynamic.HashIndexLoader;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.types.DataTypes;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.RowPartitionKeyExtractor;
import org.apache.paimon.types.RowKind;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dynamic-bucket primary-key table {@code (p INT, id INT, v INT)}, primary key {@code (p, id)},
 * partitioned by {@code p}, created and written by Apache Paimon 1.3.1; plus our readers over its
 * files. Paimon's writer maintains the hash index of every bucket it writes to (as in Paimon's Flink
 * sink); buckets come from whoever assigned them.
 */
final class PaimonDynamicTable {
    /** One record: partition, key, whether it is a -D, and its bucket. */
    record Rec(int p, int id, boolean delete, int bucket) {}

    /** (partition value, bucket). */
    record PB(int p, int bucket) implements Comparable<PB> {
        @Override
        public int compareTo(PB o) {
            return p != o.p ? Integer.compare(p, o.p) : Integer.compare(bucket, o.bucket);
        }
    }

    private static final BinaryRowConverter INT_ROW = new BinaryRowConverter(List.of(DataTypes.INT()));

    private final PaimonOracle oracle;
    private final String name;
    private final java.nio.file.Path dir;
    private final RowPartitionKeyExtractor extractor;

    private PaimonDynamicTable(PaimonOracle oracle, String name) {
        this.oracle = oracle;
        this.name = name;
        this.dir = oracle.tablePath("db", name);
        this.extractor = new RowPartitionKeyExtractor(table().schema());
    }

    static PaimonDynamicTable create(PaimonOracle oracle, String name, long targetRowNum, int maxBuckets) {
        TableSpec spec = TableSpec.of("p", "INT", "id", "INT", "v", "INT").withPrimaryKeys("p", "id")
                .withPartitionKeys("p")
                .withOption("dynamic-bucket.target-row-num", Long.toString(targetRowNum))
                .withOption("dynamic-bucket.max-buckets", Integer.toString(maxBuckets));
        oracle.createTable("db", name, spec);
        PaimonDynamicTable t = new PaimonDynamicTable(oracle, name);
        assertThat(t.table().bucketMode().toString()).isEqualTo("HASH_DYNAMIC");
        return t;
    }

    FileStoreTable table() {
        return (FileStoreTable) oracle.table("db", name);
    }

    /** Paimon's assigner as its Flink sink builds it for task {@code assignerId} of {@code numChannels}. */
    HashBucketAssigner paimonAssigner(int numChannels, int numAssigners, int assignerId) {
        FileStoreTable t = table();
        return new HashBucketAssigner(t.snapshotManager(), UUID.randomUUID().toString(), t.store().newIndexFileHandler(),
                numChannels, numAssigners, assignerId, t.coreOptions().dynamicBucketTargetRowNum(),
                t.coreOptions().dynamicBucketMaxBuckets());
    }

    BinaryRow paimonPartition(int p) {
        return extractor.partition(GenericRow.of(p, 0, 0)).copy();
    }

    static dev.streamhouse.storage.data.BinaryRow ourPartition(int p) {
        return INT_ROW.toBinaryRow(new Object[] {p});
    }

    /** The trimmed-primary-key hash, checked to be the same in Paimon and ours. */
    int keyHash(int p, int id) {
        int ours = INT_ROW.toBinaryRow(new Object[] {id}).formatHash();
        assertThat(ours).as("key hash of id %s", id).isEqualTo(extractor.trimmedPrimaryKey(GenericRow.of(p, id, 0)).hashCode());
        return ours;
    }

    /** The partition hash used for routing, checked to be the same in Paimon and ours. */
    int partitionHash(int p) {
        int ours = ourPartition(p).formatHash();
        assertThat(ours).as("partition hash of %s", p).isEqualTo(paimonPartition(p).hashCode());
        return ours;
    }

    /** Writes the records with their buckets through Paimon and commits (one snapshot). */
    void write(List<Rec> records) throws Exception {
        BatchWriteBuilder builder = table().newBatchWriteBuilder();
        try (BatchTableWrite w = builder.newWrite(); BatchTableCommit c = builder.newCommit()) {
            for (Rec r : records) {
                w.write(GenericRow.ofKind(r.delete ? RowKind.DELETE : RowKind.INSERT, r.p, r.id, r.id), r.bucket);
            }
            c.commit(w.prepareCommit());
        }
    }

    /** The HASH entries of Paimon's latest index manifest, read with our reader, in file order. */
    List<IndexManifestEntry> indexEntries() {
        Snapshot s = table().latestSnapshot().orElse(null);
        if (s == null || s.indexManifest() == null) {
            return List.of();
        }
        IndexManifestFile manifests = new IndexManifestFile(LocalFileIO.INSTANCE, new Path(dir.resolve("manifest").toString()),
                "zstd", 1);
        try {
            return manifests.read(s.indexManifest()).stream()
                    .filter(e -> e.indexFile().indexType().equals(IndexFileMeta.HASH_INDEX)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Our loader over Paimon's latest snapshot. */
    HashIndexLoader loader() {
        return partition -> indexEntries().stream().filter(e -> e.partition().equals(partition)).toList();
    }

    /** Our index file reader/writer on Paimon's table directory. */
    HashIndexFile ourIndexFile() {
        return new HashIndexFile(LocalFileIO.INSTANCE, new Path(dir.toString()));
    }

    /** Paimon's current hash index, read with our readers: hashes per (partition, bucket). */
    Map<PB, Set<Integer>> paimonIndex() {
        Map<PB, Set<Integer>> index = new TreeMap<>();
        HashIndexFile reader = ourIndexFile();
        for (IndexManifestEntry e : indexEntries()) {
            try {
                int[] hashes = reader.read(e.indexFile());
                index.put(new PB(e.partition().intAt(0), e.bucket()), set(hashes));
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
        return index;
    }

    /** Paimon's current index file name per (partition, bucket). */
    Map<PB, String> paimonIndexFileNames() {
        return indexEntries().stream().collect(Collectors.toMap(e -> new PB(e.partition().intAt(0), e.bucket()),
                e -> e.indexFile().fileName(), (a, b) -> { throw new AssertionError("two files for one bucket"); },
                TreeMap::new));
    }

    static Set<Integer> set(int[] hashes) {
        return Arrays.stream(hashes).boxed().collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    static List<Rec> withBuckets(List<Rec> records, List<Integer> buckets) {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            Rec r = records.get(i);
            out.add(new Rec(r.p, r.id, r.delete, buckets.get(i)));
        }
        return out;
    }
}
