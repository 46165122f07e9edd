package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.PaimonRows;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.maintenance.expire.TableExpiration;
import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TableFileOracle;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rollback and tag deletion that delete files, between our store and Apache Paimon 1.3.1: after our
 * {@code rollback_to} (to a retained snapshot and to a tag whose snapshot expired) and our
 * {@code delete_tag} with two names, Paimon reads every remaining snapshot and tag of our table with the
 * rows they had, and its orphan-file scan finds nothing we left behind; after Paimon's own
 * {@code rollbackTo} and {@code deleteTag} on our table (its tag deletion deletes files too), we read
 * every remaining snapshot and tag, and both write on. With and without deletion vectors.
 */
class RollbackFilesInteropTest extends InteropTestBase {
    private static final String DB = "rollback";

    /** Current rows by "dt/id", and the rows each snapshot reads (as we read it right after the commit). */
    private final Map<String, CanonicalRow> model = new TreeMap<>();
    private final Map<Long, List<CanonicalRow>> rowsAt = new TreeMap<>();
    private int version;

    RollbackFilesInteropTest() {
        super(DB);
    }

    private static TableSpec spec(String options) {
        TableSpec spec = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING").withPartitionKeys("dt")
                .withPrimaryKeys("dt", "id").withOption("bucket", "2")
                .withOption("snapshot.num-retained.min", "1").withOption("snapshot.num-retained.max", "3");
        for (String kv : options.split(",")) {
            String[] p = kv.split("=");
            spec = spec.withOption(p[0], p[1]);
        }
        return spec;
    }

    /** Upserts {@code size} keys (of 20, in 2 partitions). */
    private List<CanonicalRow> batch(int size) {
        List<CanonicalRow> rows = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            version++;
            int key = (version * 7) % 20;
            String dt = "d" + key % 2;
            CanonicalRow row = CanonicalRow.of(dt, key, "v" + version);
            model.put(dt + "/" + key, row);
            rows.add(row);
        }
        return rows;
    }

    private long latest(String table) {
        return ours.table(DB, table).latestSnapshot().map(s -> s.id()).orElse(0L);
    }

    /** Records the rows of the snapshots committed since {@code before}, as we read them. */
    private void record(String table, long before) throws Exception {
        for (long id = before + 1; id <= latest(table); id++) {
            rowsAt.put(id, ours.readSnapshot(DB, table, id));
        }
    }

    /**
     * Writes by us, with full compactions and tags: "early" (snapshot 2) and "middle" expire with their
     * snapshots, "late" stays on a retained one.
     */
    private void history(String table) throws Exception {
        TableTags tags = TableTags.of(ours.table(DB, table));
        for (int round = 0; round < 8; round++) {
            long before = latest(table);
            ours.write(DB, table, batch(6));
            record(table, before);
            if (round % 3 == 2) {
                before = latest(table);
                ours.compactAll(DB, table, true);
                record(table, before);
            }
            if (round == 1) {
                tags.create("early", latest(table), null);
            } else if (round == 4) {
                tags.create("middle", latest(table), null);
            } else if (round == 6) {
                tags.create("late", latest(table), null);
            }
        }
    }

    private List<Long> retainedSnapshots(String table) throws Exception {
        var snapshots = ((FileStoreTable) ours.table(DB, table)).snapshotManager();
        List<Long> out = new ArrayList<>();
        for (Long id : snapshots.listSnapshotIds()) {
            if (id >= snapshots.earliestSnapshotId()) {
                out.add(id);
            }
        }
        return out;
    }

    private List<CanonicalRow> paimonReadTag(String table, String tag) throws Exception {
        Table t = paimon.table(DB, table).copy(Map.of("scan.tag-name", tag));
        ReadBuilder rb = t.newReadBuilder();
        RowType type = rb.readType();
        List<CanonicalRow> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(r -> rows.add(PaimonRows.toCanonical(r, type)));
        }
        return rows;
    }

    private List<CanonicalRow> oursReadTag(String table, String tag) throws Exception {
        var t = ours.table(DB, table).copy(Map.of("scan.tag-name", tag));
        var rb = t.newReadBuilder();
        var type = rb.readType();
        List<CanonicalRow> rows = new ArrayList<>();
        rb.newRead().createReader(rb.newScan().plan().splits())
                .forEachRemaining(r -> rows.add(dev.streamhouse.e2e.oracle.OurRows.toCanonical(r, type)));
        return rows;
    }

    /** Paimon reads every remaining snapshot and tag; the files are exactly those they need. */
    private void assertPaimonReadsEverything(String table, String when) throws Exception {
        for (long id : retainedSnapshots(table)) {
            Canon.assertSameRowsIgnoringKind("Paimon reading snapshot " + id + " " + when, rowsAt.get(id),
                    paimon.readSnapshot(DB, table, id));
        }
        for (TableTags.TagInfo tag : TableTags.of(ours.table(DB, table)).list()) {
            Canon.assertSameRowsIgnoringKind("Paimon reading tag " + tag.name() + " " + when,
                    rowsAt.get(tag.snapshot().id()), paimonReadTag(table, tag.name()));
        }
        FileStoreTable t = (FileStoreTable) ours.table(DB, table);
        assertThat(TableFileOracle.filesOnDisk(t)).as("files " + when).isEqualTo(TableFileOracle.neededFiles(t));
    }

    /** We read every remaining snapshot and tag. */
    private void assertWeReadEverything(String table, String when) throws Exception {
        for (long id : retainedSnapshots(table)) {
            Canon.assertSameRowsIgnoringKind("us reading snapshot " + id + " " + when, rowsAt.get(id),
                    ours.readSnapshot(DB, table, id));
        }
        for (TableTags.TagInfo tag : TableTags.of(ours.table(DB, table)).list()) {
            Canon.assertSameRowsIgnoringKind("us reading tag " + tag.name() + " " + when,
                    rowsAt.get(tag.snapshot().id()), oursReadTag(table, tag.name()));
        }
    }

    /** How many orphan files Paimon's own scan finds in the table (every file aged past its limit). */
    private long paimonOrphans(String table) throws Exception {
        long twoDaysAgo = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(2);
        try (var files = Files.walk(paimon.tablePath(DB, table))) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                Files.setLastModifiedTime(p, FileTime.fromMillis(twoDaysAgo));
            }
        }
        return LocalOrphanFilesClean.executeDatabaseOrphanFiles(paimon.catalog(), DB, table,
                System.currentTimeMillis() - TimeUnit.DAYS.toMillis(1), 1, true).getDeletedFileCount();
    }

    /** Rolls the model back to snapshot {@code id}. */
    private void rolledBackTo(long id) {
        rowsAt.keySet().removeIf(s -> s > id);
        model.clear();
        for (CanonicalRow r : rowsAt.get(id)) {
            model.put(r.get(0) + "/" + r.get(1), r);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"changelog-producer=input", "deletion-vectors.enabled=true"})
    void paimonReadsEverythingLeftAfterOurRollbacksAndTagDeletion(String options) throws Exception {
        ours.createTable(DB, "t", spec(options));
        history("t");
        long early = TableTags.of(ours.table(DB, "t")).get("early").orElseThrow().snapshot().id();
        assertThat(retainedSnapshots("t")).doesNotContain(early);
        assertPaimonReadsEverything("t", "before");

        long target = retainedSnapshots("t").get(1);
        TableRollback.of(ours.table(DB, "t")).toSnapshot(target);
        rolledBackTo(target);
        assertPaimonReadsEverything("t", "after our rollback to snapshot " + target);

        assertThat(TableTags.of(ours.table(DB, "t")).delete(List.of("middle", "late"))).isNotEmpty();
        assertPaimonReadsEverything("t", "after our delete_tag 'middle,late'");

        TableRollback.of(ours.table(DB, "t")).toTag("early");
        rolledBackTo(early);
        assertThat(retainedSnapshots("t")).containsExactly(early);
        assertPaimonReadsEverything("t", "after our rollback to tag 'early'");
        assertThat(paimonOrphans("t")).as("orphan files Paimon finds").isZero();

        // Paimon writes on our rolled-back table and we read it.
        long before = latest("t");
        paimon.write(DB, "t", batch(5));
        Canon.assertSameRowsIgnoringKind("us after Paimon's write", model.values(), ours.readAll(DB, "t"));
        assertThat(latest("t")).isGreaterThan(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"changelog-producer=input", "deletion-vectors.enabled=true"})
    void paimonsRollbackAndTagDeletionLeaveOurTableReadable(String options) throws Exception {
        ours.createTable(DB, "t", spec(options));
        history("t");
        Table theirs = paimon.table(DB, "t");

        // Paimon deletes a tag whose snapshot expired (its TagDeletion deletes files as well).
        theirs.deleteTag("middle");
        assertWeReadEverything("t", "after Paimon's deleteTag('middle')");

        long target = retainedSnapshots("t").get(1);
        paimon.table(DB, "t").rollbackTo(target);
        rolledBackTo(target);
        assertWeReadEverything("t", "after Paimon's rollback to snapshot " + target);

        long early = TableTags.of(ours.table(DB, "t")).get("early").orElseThrow().snapshot().id();
        paimon.table(DB, "t").rollbackTo("early");
        rolledBackTo(early);
        assertWeReadEverything("t", "after Paimon's rollback to tag 'early'");

        // We write on, expire and delete the last tag; Paimon reads it.
        long before = latest("t");
        ours.write(DB, "t", batch(5));
        record("t", before);
        TableExpiration.forTable(ours.table(DB, "t")).retainMin(1).retainMax(1).expireSnapshots();
        TableTags.of(ours.table(DB, "t")).delete(List.of("early"));
        Canon.assertSameRowsIgnoringKind("Paimon after our write", model.values(), paimon.readAll(DB, "t"));
        assertWeReadEverything("t", "after our write, expiration and tag deletion");
    }
}
