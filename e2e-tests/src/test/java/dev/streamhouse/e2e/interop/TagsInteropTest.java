package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.PaimonRows;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tags and rollback between our store and Apache Paimon 1.3.1: Paimon lists and reads the tags we
 * create (its {@code $tags} and {@code scan.tag-name}, also after the tagged snapshot file is gone) and
 * rolls our tables back; we read and list the tags Paimon creates (with and without a retention time)
 * and roll its tables back, and each side then writes on.
 */
class TagsInteropTest extends InteropTestBase {
    private static final String DB = "tags";
    private static final TableSpec SPEC = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING")
            .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "2");

    TagsInteropTest() {
        super(DB);
    }

    private static List<CanonicalRow> batch(int from, int count, String name) {
        List<CanonicalRow> rows = new ArrayList<>();
        for (int id = from; id < from + count; id++) {
            rows.add(CanonicalRow.of("d" + (id % 2), id, name + id));
        }
        return rows;
    }

    /** Rows after the batches (later names win per key). */
    private static List<CanonicalRow> upTo(int batches) {
        Map<Integer, CanonicalRow> byId = new java.util.TreeMap<>();
        List<List<CanonicalRow>> all = List.of(batch(0, 6, "a"), batch(3, 6, "b"), batch(8, 4, "c"));
        for (int i = 0; i < batches; i++) {
            for (CanonicalRow r : all.get(i)) {
                byId.put((Integer) r.values().get(1), r);
            }
        }
        return new ArrayList<>(byId.values());
    }

    private List<CanonicalRow> paimonRead(Table table) throws Exception {
        ReadBuilder rb = table.newReadBuilder();
        RowType type = rb.readType();
        List<CanonicalRow> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(r -> rows.add(PaimonRows.toCanonical(r, type)));
        }
        return rows;
    }

    private List<CanonicalRow> paimonReadTag(String table, String tag) throws Exception {
        return paimonRead(paimon.table(DB, table).copy(Map.of("scan.tag-name", tag)));
    }

    /** Paimon's {@code t$tags}: tag_name, snapshot_id, record_count, create_time set?, time_retained. */
    private List<String> paimonTagsTable(String table) throws Exception {
        Table tags = paimon.catalog().getTable(Identifier.fromString(DB + "." + table + "$tags"));
        List<String> out = new ArrayList<>();
        ReadBuilder rb = tags.newReadBuilder();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(r -> out.add(r.getString(0) + "," + r.getLong(1) + "," + r.getLong(4) + ","
                    + !r.isNullAt(5) + "," + (r.isNullAt(6) ? null : r.getString(6).toString())));
        }
        return out;
    }

    private List<CanonicalRow> oursReadTag(String table, String tag) throws Exception {
        dev.streamhouse.storage.table.Table t = ours.table(DB, table).copy(Map.of("scan.tag-name", tag));
        var rb = t.newReadBuilder();
        var type = rb.readType();
        List<CanonicalRow> rows = new ArrayList<>();
        rb.newRead().createReader(rb.newScan().plan().splits())
                .forEachRemaining(r -> rows.add(dev.streamhouse.e2e.oracle.OurRows.toCanonical(r, type)));
        return rows;
    }

    private Path tableDir(String table) {
        return warehouse.resolve(DB + ".db").resolve(table);
    }

    @Test
    void paimonReadsOurTagsAndRollsOurTableBack() throws Exception {
        ours.createTable(DB, "t", SPEC);
        ours.write(DB, "t", batch(0, 6, "a"));
        ours.write(DB, "t", batch(3, 6, "b"));
        ours.write(DB, "t", batch(8, 4, "c"));
        TableTags tags = TableTags.of(ours.table(DB, "t"));
        tags.create("first", 1L, Duration.ofHours(1));
        tags.create("second", 2L, null);

        assertThat(paimonTagsTable("t")).containsExactly("first,1,6,true,PT1H", "second,2,12,false,null");
        Canon.assertSameRowsIgnoringKind("Paimon reading our tag 'first'", upTo(1), paimonReadTag("t", "first"));
        Canon.assertSameRowsIgnoringKind("Paimon reading our tag 'second'", upTo(2), paimonReadTag("t", "second"));
        // as if snapshot 1 had expired: both still read the tag from its file
        Files.delete(tableDir("t").resolve("snapshot").resolve("snapshot-1"));
        Files.writeString(tableDir("t").resolve("snapshot").resolve("EARLIEST"), "2");
        Canon.assertSameRowsIgnoringKind("Paimon reading tag 'first' after expiry", upTo(1), paimonReadTag("t", "first"));
        Canon.assertSameRowsIgnoringKind("we read tag 'first' after expiry", upTo(1), oursReadTag("t", "first"));

        // Paimon rolls our table back to the tag whose snapshot is gone
        paimon.table(DB, "t").rollbackTo("first");
        Canon.assertSameRowsIgnoringKind("we read our table after Paimon's rollback", upTo(1), ours.readAll(DB, "t"));
        assertThat(tags.list()).extracting(TableTags.TagInfo::name).containsExactly("first");
        assertThat(ours.table(DB, "t").latestSnapshot().orElseThrow().id()).isEqualTo(1);
        ours.write(DB, "t", batch(3, 6, "b"));
        Canon.assertSameRowsIgnoringKind("Paimon after our write on the rolled-back table", upTo(2),
                paimon.readAll(DB, "t"));
    }

    @Test
    void weReadPaimonsTagsAndRollItsTableBack() throws Exception {
        paimon.createTable(DB, "p", SPEC);
        paimon.write(DB, "p", batch(0, 6, "a"));
        paimon.write(DB, "p", batch(3, 6, "b"));
        paimon.write(DB, "p", batch(8, 4, "c"));
        Table table = paimon.table(DB, "p");
        table.createTag("kept", 1);
        table.createTag("retained", 2, Duration.ofMinutes(90));

        List<TableTags.TagInfo> listed = TableTags.of(ours.table(DB, "p")).list();
        assertThat(listed).extracting(TableTags.TagInfo::name).containsExactly("kept", "retained");
        assertThat(listed.get(0).timeRetained()).isNull();
        assertThat(listed.get(0).createTime()).isNull();
        assertThat(listed.get(1).timeRetained()).isEqualTo(Duration.ofMinutes(90));
        assertThat(listed.get(1).createTime()).isNotNull();
        Canon.assertSameRowsIgnoringKind("we read Paimon's tag 'kept'", upTo(1), oursReadTag("p", "kept"));
        Canon.assertSameRowsIgnoringKind("we read Paimon's tag 'retained'", upTo(2), oursReadTag("p", "retained"));

        // we roll Paimon's table back; later tags go, Paimon reads and writes on
        TableRollback.Result result = TableRollback.of(ours.table(DB, "p")).toTag("kept");
        assertThat(result).isEqualTo(new TableRollback.Result(3, 1));
        assertThat(paimonTagsTable("p")).containsExactly("kept,1,6,false,null");
        Canon.assertSameRowsIgnoringKind("Paimon after our rollback", upTo(1), paimon.readAll(DB, "p"));
        paimon.write(DB, "p", batch(3, 6, "b"));
        assertThat(paimon.latestSnapshotId(DB, "p").getAsLong()).isEqualTo(2);
        Canon.assertSameRowsIgnoringKind("we read Paimon's write after our rollback", upTo(2), ours.readAll(DB, "p"));

        // a tag we create on Paimon's table is one Paimon reads
        TableTags.of(ours.table(DB, "p")).create("ours", null, Duration.ofDays(1));
        Canon.assertSameRowsIgnoringKind("Paimon reading our tag of its table", upTo(2), paimonReadTag("p", "ours"));
    }
}
