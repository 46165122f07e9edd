package dev.streamhouse.e2e.dynbucket;

import dev.streamhouse.e2e.dynbucket.PaimonDynamicTable.PB;
import dev.streamhouse.e2e.dynbucket.PaimonDynamicTable.Rec;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import dev.streamhouse.storage.bucket.dynamic.DynamicBucketAssigner;
import dev.streamhouse.storage.bucket.dynamic.HashIndexFile;
import dev.streamhouse.storage.bucket.dynamic.IndexChange;
import dev.streamhouse.storage.index.IndexManifestEntry;
import org.apache.paimon.index.BucketAssigner;
import org.apache.paimon.index.HashBucketAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our dynamic-bucket assigner against Apache Paimon 1.3.1's {@code HashBucketAssigner} (the class its
 * Flink sink runs in each assigner task): same records in the same order, same buckets; and the hash
 * index files our assigner writes hold, per (partition, bucket), exactly the hashes of the files
 * Paimon's writer maintains for the same records. Restarts load both sides from Paimon's index.
 */
class DynamicBucketAssignerInteropTest {
    @TempDir
    Path dir;

    private PaimonOracle oracle;
    private long commitId;

    @BeforeEach
    void setUp() {
        oracle = new PaimonOracle(dir.resolve("warehouse"));
    }

    @AfterEach
    void tearDown() throws Exception {
        oracle.close();
    }

    /** Paimon's and our assigners for one assigner layout; index = task id. */
    private final class Assigners {
        final int numChannels;
        final int numAssigners;
        final List<HashBucketAssigner> paimon = new ArrayList<>();
        final List<DynamicBucketAssigner> ours = new ArrayList<>();
        final HashIndexFile ourFiles;

        Assigners(PaimonDynamicTable t, int numChannels, int numAssigners, long targetRowNum, int maxBuckets) {
            this.numChannels = numChannels;
            this.numAssigners = numAssigners;
            this.ourFiles = t.ourIndexFile();
            for (int id = 0; id < numChannels; id++) {
                paimon.add(t.paimonAssigner(numChannels, numAssigners, id));
                ours.add(new DynamicBucketAssigner(ourFiles, t.loader(), targetRowNum, maxBuckets,
                        new AssignerRouting(numChannels, numAssigners, id)));
            }
        }
    }

    /** Assigns every record with both sides (asserting equal buckets) and returns the buckets. */
    private List<Integer> assignBoth(PaimonDynamicTable t, Assigners a, List<Rec> records) throws Exception {
        List<Integer> buckets = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            Rec r = records.get(i);
            int pHash = t.partitionHash(r.p());
            int kHash = t.keyHash(r.p(), r.id());
            int channel = AssignerRouting.channel(pHash, kHash, a.numChannels, a.numAssigners);
            assertThat(channel).isEqualTo(BucketAssigner.computeAssigner(pHash, kHash, a.numChannels, a.numAssigners));
            int paimonBucket = a.paimon.get(channel).assign(t.paimonPartition(r.p()), kHash);
            int ourBucket = a.ours.get(channel).assign(PaimonDynamicTable.ourPartition(r.p()), kHash);
            assertThat(ourBucket).as("record %s %s (task %s of %s, %s per partition)", i, r, channel, a.numChannels,
                    a.numAssigners).isEqualTo(paimonBucket);
            buckets.add(ourBucket);
        }
        return buckets;
    }

    /**
     * Writes the records with Paimon (its writer updates the hash index), prepares our commit, and checks
     * that our changes cover exactly the buckets whose index file Paimon replaced, with the same hashes.
     *
     * @param restoredFromPaimon whether our assigners loaded their state from Paimon's index in this
     *     round, so the files they replace are Paimon's
     */
    private void commitAndCompare(PaimonDynamicTable t, Assigners a, List<Rec> records, List<Integer> buckets,
            boolean restoredFromPaimon) throws Exception {
        Map<PB, String> before = t.paimonIndexFileNames();
        t.write(PaimonDynamicTable.withBuckets(records, buckets));
        commitId++;
        for (HashBucketAssigner p : a.paimon) {
            p.prepareCommit(commitId);
        }
        Map<PB, String> after = t.paimonIndexFileNames();
        Map<PB, Set<Integer>> paimonIndex = t.paimonIndex();
        Map<PB, IndexManifestEntry> paimonEntries = new HashMap<>();
        t.indexEntries().forEach(e -> paimonEntries.put(new PB(e.partition().intAt(0), e.bucket()), e));
        Set<PB> replacedByPaimon = new TreeSet<>();
        after.forEach((pb, name) -> {
            if (!name.equals(before.get(pb))) {
                replacedByPaimon.add(pb);
            }
        });
        assertThat(before.keySet()).isSubsetOf(after.keySet());

        Map<PB, IndexChange> ourChanges = new TreeMap<>();
        for (DynamicBucketAssigner ours : a.ours) {
            for (IndexChange c : ours.prepareCommit()) {
                PB pb = new PB(c.partition().intAt(0), c.bucket());
                assertThat(ourChanges.put(pb, c)).as("two assigners changed %s", pb).isNull();
            }
        }
        assertThat(ourChanges.keySet()).as("buckets whose index changed").isEqualTo(replacedByPaimon);
        for (Map.Entry<PB, IndexChange> e : ourChanges.entrySet()) {
            IndexChange c = e.getValue();
            assertThat(PaimonDynamicTable.set(a.ourFiles.read(c.newFile()))).as("hashes of %s", e.getKey())
                    .isEqualTo(paimonIndex.get(e.getKey()));
            assertThat(c.newFile().rowCount()).isEqualTo(paimonEntries.get(e.getKey()).indexFile().rowCount());
            assertThat(c.newFile().fileSize()).isEqualTo(paimonEntries.get(e.getKey()).indexFile().fileSize());
            if (restoredFromPaimon) {
                assertThat(c.replacedFile() == null ? null : c.replacedFile().fileName()).isEqualTo(before.get(e.getKey()));
            }
        }
    }

    private static List<Rec> randomRecords(SplittableRandom random, int count, int keyRange, double deleteShare) {
        List<Rec> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new Rec(1 + random.nextInt(2), random.nextInt(keyRange), random.nextDouble() < deleteShare, -1));
        }
        return records;
    }

    @Test
    void routingFunctionsMatchPaimon() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 20_000; i++) {
            int channels = 1 + random.nextInt(9);
            int assigners = 1 + random.nextInt(channels);
            int p = random.nextInt();
            int k = random.nextInt();
            assertThat(AssignerRouting.channel(p, k, channels, assigners))
                    .isEqualTo(BucketAssigner.computeAssigner(p, k, channels, assigners));
        }
        for (int[] layout : new int[][] {{1, 1}, {2, 2}, {4, 2}, {6, 3}, {8, 4}, {4, 1}}) {
            for (int id = 0; id < layout[0]; id++) {
                AssignerRouting r = new AssignerRouting(layout[0], layout[1], id);
                for (int bucket = 0; bucket < 100; bucket++) {
                    assertThat(r.ownsBucket(bucket)).as("%s bucket %s", r, bucket)
                            .isEqualTo(BucketAssigner.isMyBucket(bucket, layout[1], id % layout[1]));
                }
            }
        }
    }

    @Test
    void oneAssignerMatchesPaimonAcrossCommitsAndRestarts() throws Exception {
        PaimonDynamicTable t = PaimonDynamicTable.create(oracle, "single", 7, -1);
        SplittableRandom random = new SplittableRandom(1);

        Assigners first = new Assigners(t, 1, 1, 7, -1);
        List<Rec> r1 = randomRecords(random, 250, 400, 0.1);
        commitAndCompare(t, first, r1, assignBoth(t, first, r1), true);

        Assigners restarted = new Assigners(t, 1, 1, 7, -1);   // both load Paimon's index
        List<Rec> r2 = randomRecords(random, 250, 600, 0.1);
        commitAndCompare(t, restarted, r2, assignBoth(t, restarted, r2), true);

        List<Rec> r3 = randomRecords(random, 250, 800, 0.1);   // the same assigners continue
        commitAndCompare(t, restarted, r3, assignBoth(t, restarted, r3), false);
        assertThat(t.paimonIndexFileNames()).hasSizeGreaterThan(40);
    }

    @Test
    void parallelAssignersMatchPaimonAlsoWhenTheParallelismChanges() throws Exception {
        PaimonDynamicTable t = PaimonDynamicTable.create(oracle, "parallel", 12, -1);
        SplittableRandom random = new SplittableRandom(2);
        int[][] layouts = {{2, 2}, {3, 3}, {4, 2}, {4, 1}, {1, 1}};
        int keyRange = 300;
        for (int[] layout : layouts) {
            Assigners a = new Assigners(t, layout[0], layout[1], 12, -1);
            List<Rec> records = randomRecords(random, 250, keyRange, 0.05);
            commitAndCompare(t, a, records, assignBoth(t, a, records), true);
            keyRange += 200;
            if (layout[0] == 4 && layout[1] == 2) {
                List<Rec> more = randomRecords(random, 250, keyRange, 0.05);   // continue without restart
                commitAndCompare(t, a, more, assignBoth(t, a, more), false);
                keyRange += 200;
            }
        }
    }

    @Test
    void partlyFilledBucketsAfterARestartAreFilledInPaimonsOrder() throws Exception {
        PaimonDynamicTable t = PaimonDynamicTable.create(oracle, "partly", 10, -1);
        SplittableRandom random = new SplittableRandom(3);
        // An index Paimon's assigner would not produce: ~60 buckets numbered up to 300, 1..12 keys each
        // (target 10, so some full), written through Paimon's writer in two commits.
        int nextId = 0;
        for (int commit = 0; commit < 2; commit++) {
            List<Rec> records = new ArrayList<>();
            for (int b = 0; b < 30; b++) {
                int bucket = random.nextInt(300);
                int p = 1 + random.nextInt(2);
                int keys = 1 + random.nextInt(12);
                for (int k = 0; k < keys; k++) {
                    records.add(new Rec(p, nextId++, false, bucket));
                }
            }
            Collections.shuffle(records, new java.util.Random(commit));
            t.write(records);
        }
        assertThat(t.paimonIndexFileNames()).hasSizeGreaterThan(40);
        for (int[] layout : new int[][] {{1, 1}, {2, 2}}) {
            Assigners a = new Assigners(t, layout[0], layout[1], 10, -1);
            List<Rec> records = new ArrayList<>();
            for (int i = 0; i < 600; i++) {
                records.add(new Rec(1 + random.nextInt(2), random.nextInt(nextId + 800), false, -1));
            }
            assignBoth(t, a, records);   // no commit: both layouts start from the same index
        }
    }

    @Test
    void maxBucketsMatchesPaimonWhereBothAreDeterministic() throws Exception {
        // target 2, max 3. Paimon spreads over full buckets at random, so only the deterministic part is
        // compared record by record: filling buckets 0..2 of partition 1, and then partition 2, which
        // under Paimon 1.3's assigner-wide limit opens only bucket 0 and puts every key there.
        PaimonDynamicTable t = PaimonDynamicTable.create(oracle, "max", 2, 3);
        Assigners a = new Assigners(t, 1, 1, 2, 3);
        List<Rec> records = new ArrayList<>();
        for (int id = 0; id < 6; id++) {
            records.add(new Rec(1, id, false, -1));
        }
        for (int id = 0; id < 7; id++) {
            records.add(new Rec(2, id, false, -1));
        }
        List<Integer> buckets = assignBoth(t, a, records);
        assertThat(buckets).containsExactly(0, 0, 1, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0);
        // Partition 1 is full: ours picks among its buckets (Paimon: randomly among the same).
        int overflow = a.ours.get(0).assign(PaimonDynamicTable.ourPartition(1), t.keyHash(1, 100));
        assertThat(overflow).isBetween(0, 2);
        records.add(new Rec(1, 100, false, -1));
        buckets = new ArrayList<>(buckets);
        buckets.add(overflow);
        a.paimon.get(0).assign(t.paimonPartition(1), t.keyHash(1, 100));
        commitAndCompare(t, a, records, buckets, true);

        // After a restart the limit is learned again from assigned buckets: partition 2 (bucket 0 full)
        // opens buckets 1 and 2 in both.
        Assigners restarted = new Assigners(t, 1, 1, 2, 3);
        List<Rec> more = new ArrayList<>();
        for (int id = 10; id < 14; id++) {
            more.add(new Rec(2, id, false, -1));
        }
        assertThat(assignBoth(t, restarted, more)).containsExactly(1, 1, 2, 2);
    }

    @Test
    void deletedAndUnknownDeletedKeysStayInTheIndexAsInPaimon() throws Exception {
        PaimonDynamicTable t = PaimonDynamicTable.create(oracle, "deletes", 100, -1);
        Assigners a = new Assigners(t, 1, 1, 100, -1);
        List<Rec> inserts = List.of(new Rec(1, 1, false, -1), new Rec(1, 2, false, -1));
        commitAndCompare(t, a, inserts, assignBoth(t, a, inserts), true);

        Assigners restarted = new Assigners(t, 1, 1, 100, -1);
        List<Rec> deletes = List.of(new Rec(1, 1, true, -1), new Rec(1, 3, true, -1));   // 3 was never written
        commitAndCompare(t, restarted, deletes, assignBoth(t, restarted, deletes), true);
        assertThat(t.paimonIndex()).containsExactly(Map.entry(new PB(1, 0),
                new TreeSet<>(List.of(t.keyHash(1, 1), t.keyHash(1, 2), t.keyHash(1, 3)))));
        assertThat(oracle.readAll("db", "deletes")).hasSize(1);
    }
}
