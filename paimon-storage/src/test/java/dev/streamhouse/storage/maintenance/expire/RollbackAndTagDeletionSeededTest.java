package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.testutils.TableFileOracle;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random histories on primary-key tables of several kinds (input changelog with background compaction,
 * deletion vectors, changelog kept in {@code changelog/} after its snapshots expire, lookup changelog):
 * writes, compactions (full ones upgrade single files in place), tags (some with a retention that
 * passes), snapshot expiration after commits and by call; and in between rollbacks to snapshots and
 * tags, {@code delete_tag} with one or two names, {@code expire_tags} and tag expiration after commits.
 *
 * <p>After every step every snapshot and tag still there reads exactly the rows the model gives it, the
 * tags are exactly those the model has, and the files on disk are exactly those the remaining metadata
 * needs: nothing needed is gone and nothing unneeded is left.
 */
class RollbackAndTagDeletionSeededTest {
    private static final int KEYS = 30;

    @TempDir
    java.nio.file.Path tmp;

    static Stream<Arguments> histories() {
        Map<String, String[]> kinds = new TreeMap<>();
        // tiny target files: every file is a section of its own, which compactions upgrade instead of rewrite
        kinds.put("input", new String[] {"bucket", "2", "changelog-producer", "input", "target-file-size", "1 b",
            "num-sorted-run.compaction-trigger", "3", "snapshot.num-retained.min", "1", "snapshot.num-retained.max", "4"});
        kinds.put("deletion-vectors", new String[] {"deletion-vectors.enabled", "true", "target-file-size", "1 b",
            "snapshot.num-retained.min", "2", "snapshot.num-retained.max", "5"});
        kinds.put("decoupled-changelog", new String[] {"bucket", "2", "snapshot.num-retained.min", "1",
            "snapshot.num-retained.max", "3", "changelog.num-retained.max", "12"});
        kinds.put("lookup", new String[] {"changelog-producer", "lookup", "snapshot.num-retained.min", "1",
            "snapshot.num-retained.max", "3", "changelog.num-retained.max", "8"});
        List<Arguments> out = new ArrayList<>();
        for (Map.Entry<String, String[]> kind : kinds.entrySet()) {
            for (long seed = 1; seed <= 2; seed++) {
                out.add(Arguments.of(kind.getKey(), kind.getValue(), seed));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} seed {2}")
    @MethodSource("histories")
    void everyRemainingSnapshotAndTagReadsItsRowsAndNoFileIsLeftOrMissing(String kind, String[] options, long seed)
            throws Exception {
        Random random = new Random(seed * 31 + kind.hashCode());
        String[] all = new String[options.length + 2];
        System.arraycopy(options, 0, all, 0, options.length);
        all[options.length] = "snapshot.time-retained";
        all[options.length + 1] = "1 ms";
        HistoryFixture h = new HistoryFixture(TestTables.create(LocalFileIO.INSTANCE,
                new Path(tmp.resolve("t").toString()), HistoryFixture.pkSchema(all)));
        Map<String, Long> tags = new TreeMap<>();
        Set<String> expiringTags = new TreeSet<>();
        StringBuilder history = new StringBuilder();
        int rollbacks = 0;
        int tagDeletions = 0;
        int freeing = 0;
        int nextTag = 0;

        for (int step = 0; step < 45; step++) {
            int op = random.nextInt(100);
            int filesBefore = TableFileOracle.filesOnDisk(h.table).size();
            if (op < 45 || h.latestId() == 0) {
                long id = op < 38 || h.latestId() == 0 ? h.randomWrite(random, KEYS)
                        // keys no other file has: a later compaction upgrades the file in place
                        : h.upsert(KEYS + 10 * step, KEYS + 10 * step + 5, "fresh");
                history.append(" w").append(id);
                tags.keySet().removeAll(expiringTags);
                expiringTags.clear();
            } else if (op < 55) {
                boolean full = random.nextBoolean();
                long before = h.latestId();
                long id = h.compact(full);
                history.append(full ? " F" : " c").append(id);
                if (id != before && h.upgrades(id)) {
                    history.append('^');
                }
                // tags whose retention passed go after a commit, also one that had nothing to compact
                tags.keySet().removeAll(expiringTags);
                expiringTags.clear();
            } else if (op < 66) {
                List<Long> retained = h.retainedSnapshots();
                long id = retained.get(random.nextInt(retained.size()));
                String name = "t" + nextTag++;
                boolean expiring = random.nextInt(4) == 0;
                TableTags.of(h.table).create(name, id, expiring ? Duration.ofMillis(1) : null);
                tags.put(name, id);
                if (expiring) {
                    expiringTags.add(name);
                }
                history.append(" t").append(name).append('@').append(id).append(expiring ? "~" : "");
            } else if (op < 74 && !tags.isEmpty()) {
                List<String> names = new ArrayList<>(tags.keySet());
                List<String> delete = new ArrayList<>();
                delete.add(names.get(random.nextInt(names.size())));
                delete.add(random.nextBoolean() ? names.get(random.nextInt(names.size())) : "missing");
                TableTags.of(h.table).delete(delete);
                delete.forEach(tags::remove);
                expiringTags.removeAll(delete);
                tagDeletions++;
                history.append(" d").append(delete);
            } else if (op < 78) {
                Thread.sleep(2);
                List<String> expired = TableTags.of(h.table).expire(null);
                assertThat(new TreeSet<>(expired)).as("expire_tags").isEqualTo(expiringTags);
                tags.keySet().removeAll(expiringTags);
                tagDeletions += expired.isEmpty() ? 0 : 1;
                expiringTags.clear();
                history.append(" e").append(expired);
            } else if (op < 88) {
                long target = rollback(h, random, tags);
                tags.values().removeIf(id -> id > target);
                expiringTags.retainAll(tags.keySet());
                rollbacks++;
                history.append(" r").append(target);
            } else {
                int max = 1 + random.nextInt(3);
                TableExpiration.forTable(h.table).retainMin(1).retainMax(max).expireSnapshots();
                history.append(" x").append(max);
            }
            String when = kind + " seed " + seed + " after" + history;
            assertThat(TableTags.of(h.table).list()).extracting(TableTags.TagInfo::name).as("tags " + when)
                    .containsExactlyElementsOf(sortedBySnapshot(tags));
            h.assertEverythingReads(when);
            h.assertFilesExactlyNeeded(when);
            if (op >= 66 && op < 88 && TableFileOracle.filesOnDisk(h.table).size() < filesBefore) {
                freeing++;
            }
        }
        // Finally every tag goes, in one delete_tag, and the table rolls back to its earliest snapshot.
        int filesBefore = TableFileOracle.filesOnDisk(h.table).size();
        TableTags.of(h.table).delete(new ArrayList<>(tags.keySet()));
        tags.clear();
        h.assertEverythingReads(kind + " seed " + seed + " after deleting every tag");
        h.assertFilesExactlyNeeded(kind + " seed " + seed + " after deleting every tag");
        long earliest = h.retainedSnapshots().get(0);
        TableRollback.of(h.table).toSnapshot(earliest);
        h.rolledBackTo(earliest);
        h.assertEverythingReads(kind + " seed " + seed + " after rolling back to " + earliest);
        h.assertFilesExactlyNeeded(kind + " seed " + seed + " after rolling back to " + earliest);
        if (TableFileOracle.filesOnDisk(h.table).size() < filesBefore) {
            freeing++;
        }
        assertThat(rollbacks + tagDeletions).as("operations in " + history).isPositive();
        assertThat(freeing).as("rollbacks and tag deletions that deleted files in " + history).isPositive();
    }

    private static List<String> sortedBySnapshot(Map<String, Long> tags) {
        List<String> names = new ArrayList<>(tags.keySet());
        names.sort((a, b) -> tags.get(a).equals(tags.get(b)) ? a.compareTo(b) : Long.compare(tags.get(a), tags.get(b)));
        return names;
    }

    /** Rolls back to a random tag or retained snapshot; returns the target id. */
    private static long rollback(HistoryFixture h, Random random, Map<String, Long> tags) throws Exception {
        long target;
        if (!tags.isEmpty() && random.nextBoolean()) {
            List<String> names = new ArrayList<>(tags.keySet());
            String name = names.get(random.nextInt(names.size()));
            target = tags.get(name);
            TableRollback.of(h.table).toTag(name);
        } else {
            List<Long> retained = h.retainedSnapshots();
            target = retained.get(random.nextInt(retained.size()));
            TableRollback.of(h.table).toSnapshot(target);
        }
        h.rolledBackTo(target);
        return target;
    }
}
