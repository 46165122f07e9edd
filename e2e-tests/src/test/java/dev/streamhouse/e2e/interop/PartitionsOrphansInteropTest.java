package dev.streamhouse.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.PaimonRows;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.maintenance.partition.TablePartitionExpiration;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.operation.CleanOrphanFilesResult;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Our partition expiration and orphan removal against Apache Paimon 1.3.1: Paimon reads our table
 * after we expired partitions and removed orphans (latest and the snapshot before the expiration), and
 * finds no orphans left; our orphan removal on a table Paimon wrote, with a tag whose snapshot Paimon
 * expired, leaves the latest snapshot and the tag readable by Paimon.
 */
class PartitionsOrphansInteropTest extends InteropTestBase {
    private static final String DB = "lifecycle";
    private static final TableSpec SPEC = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING")
            .withPartitionKeys("dt").withOption("bucket", "2").withOption("bucket-key", "id");
    private static final long TWO_DAYS = TimeUnit.DAYS.toMillis(2);

    PartitionsOrphansInteropTest() {
        super(DB);
    }

    private static List<CanonicalRow> rows(String dt, int from, int count) {
        List<CanonicalRow> out = new ArrayList<>();
        for (int id = from; id < from + count; id++) {
            out.add(CanonicalRow.of(dt, id, "n" + id));
        }
        return out;
    }

    private static long oneDayAgo() {
        return System.currentTimeMillis() - TimeUnit.DAYS.toMillis(1);
    }

    private static Path plantOld(Path file) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "orphan");
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - TWO_DAYS));
        return file;
    }

    private static void ageEverything(Path root) throws Exception {
        try (var files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - TWO_DAYS));
            }
        }
    }

    private long paimonDryRunOrphans(String table) throws Exception {
        CleanOrphanFilesResult result = LocalOrphanFilesClean.executeDatabaseOrphanFiles(paimon.catalog(), DB, table,
                oneDayAgo(), 1, true);
        return result.getDeletedFileCount();
    }

    private List<CanonicalRow> paimonReadTag(String table, String tag) throws Exception {
        Table t = paimon.table(DB, table).copy(Map.of("scan.tag-name", tag));
        ReadBuilder rb = t.newReadBuilder();
        RowType type = rb.readType();
        List<CanonicalRow> out = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(r -> out.add(PaimonRows.toCanonical(r, type)));
        }
        return out;
    }

    @Test
    void paimonReadsOurTableAfterPartitionExpirationAndOrphanRemoval() throws Exception {
        ours.createTable(DB, "t", SPEC.withOption("partition.timestamp-formatter", "yyyyMMdd"));
        ours.write(DB, "t", rows("20200101", 0, 10));
        ours.write(DB, "t", rows("20200102", 10, 10));
        long beforeExpiration = ours.write(DB, "t", rows("29990101", 20, 10));

        List<?> expired = TablePartitionExpiration.of(ours.table(DB, "t").copy(Map.of("partition.expiration-time", "7 d")))
                .expire(LocalDateTime.now());
        assertThat(expired).hasSize(2);

        Path root = paimon.tablePath(DB, "t");
        ageEverything(root);
        List<Path> orphans = List.of(plantOld(root.resolve("dt=29990101/bucket-0/data-orphan-0.parquet")),
                plantOld(root.resolve("manifest/manifest-orphan-0")), plantOld(root.resolve("index/index-orphan-0")));
        assertThat(paimonDryRunOrphans("t")).as("Paimon sees the planted orphans").isEqualTo(orphans.size());

        TableOrphanFiles.Result result = TableOrphanFiles.of(ours.table(DB, "t")).clean(oneDayAgo(), false);
        assertThat(result.deletedFiles()).hasSize(orphans.size());
        orphans.forEach(p -> assertThat(p).doesNotExist());

        Canon.assertSameRows("Paimon reading our table after expiration", rows("29990101", 20, 10),
                paimon.readAll(DB, "t"));
        List<CanonicalRow> all = new ArrayList<>(rows("20200101", 0, 10));
        all.addAll(rows("20200102", 10, 10));
        all.addAll(rows("29990101", 20, 10));
        Canon.assertSameRows("Paimon reading the snapshot before the expiration", all,
                paimon.readSnapshot(DB, "t", beforeExpiration));
        assertThat(paimonDryRunOrphans("t")).as("orphans Paimon still sees").isZero();
    }

    @Test
    void ourOrphanRemovalOnAPaimonTableWithATagKeepsItReadable() throws Exception {
        paimon.createTable(DB, "p", SPEC.withOption("snapshot.num-retained.min", "1")
                .withOption("snapshot.num-retained.max", "1"));
        paimon.write(DB, "p", rows("a", 0, 10));
        long tagged = paimon.write(DB, "p", rows("b", 10, 10));
        paimon.table(DB, "p").createTag("t1", tagged);
        paimon.overwrite(DB, "p", Map.of("dt", "a"), rows("a", 100, 3));
        paimon.write(DB, "p", rows("b", 20, 5));
        assertThat(Files.exists(paimon.tablePath(DB, "p").resolve("snapshot/snapshot-" + tagged)))
                .as("Paimon expired the tagged snapshot").isFalse();

        Path root = paimon.tablePath(DB, "p");
        ageEverything(root);
        Path orphan = plantOld(root.resolve("dt=b/bucket-1/data-orphan-0.parquet"));

        TableOrphanFiles.Result result = TableOrphanFiles.of(ours.table(DB, "p")).clean(oneDayAgo(), false);
        assertThat(result.deletedFiles()).extracting(dev.streamhouse.storage.fs.Path::name)
                .containsExactly("data-orphan-0.parquet");
        assertThat(orphan).doesNotExist();

        List<CanonicalRow> latest = new ArrayList<>(rows("a", 100, 3));
        latest.addAll(rows("b", 10, 15));
        Canon.assertSameRows("Paimon reading the latest snapshot", latest, paimon.readAll(DB, "p"));
        List<CanonicalRow> atTag = new ArrayList<>(rows("a", 0, 10));
        atTag.addAll(rows("b", 10, 10));
        Canon.assertSameRows("Paimon reading tag t1", atTag, paimonReadTag("p", "t1"));
        Canon.assertSameRows("our reading", latest, ours.readAll(DB, "p"));
        assertThat(paimonDryRunOrphans("p")).as("orphans Paimon still sees").isZero();
    }
}
