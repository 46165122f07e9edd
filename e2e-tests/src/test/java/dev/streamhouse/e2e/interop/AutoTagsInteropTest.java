package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.OurRows;
import dev.streamhouse.e2e.oracle.PaimonRows;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.table.sink.TableCommit;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Automatic tags against Apache Paimon 1.3.1: the same commits with the same snapshot watermarks make
 * tags of the same names on the same snapshots on both sides (hourly with a delay and completion, daily
 * without dashes, a period duration), the oldest go by {@code tag.num-retained-max} alike, and each side
 * reads the other's automatic tags.
 */
class AutoTagsInteropTest extends InteropTestBase {
    private static final String DB = "autotags";

    AutoTagsInteropTest() {
        super(DB);
    }

    private static TableSpec spec(Map<String, String> options) {
        TableSpec spec = TableSpec.of("dt", "STRING", "id", "INT", "name", "STRING")
                .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "2")
                .withOption("tag.automatic-creation", "watermark").withOption("sink.watermark-time-zone", "UTC");
        for (Map.Entry<String, String> e : options.entrySet()) {
            spec = spec.withOption(e.getKey(), e.getValue());
        }
        return spec;
    }

    private static long utc(String t) {
        return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    private static List<CanonicalRow> batch(int i) {
        return List.of(CanonicalRow.of("d" + (i % 2), i, "n" + i), CanonicalRow.of("d0", 100, "latest" + i));
    }

    /** Commits one snapshot per watermark through Paimon's stream commit. */
    private void paimonCommits(String table, List<Long> watermarks) throws Exception {
        Table t = paimon.table(DB, table);
        StreamWriteBuilder builder = t.newStreamWriteBuilder().withCommitUser("paimon-job");
        RowType type = t.rowType();
        try (StreamTableWrite write = builder.newWrite(); TableCommitImpl commit = (TableCommitImpl) builder.newCommit()) {
            for (int i = 0; i < watermarks.size(); i++) {
                for (CanonicalRow r : batch(i)) {
                    write.write(PaimonRows.toPaimon(r, type));
                }
                ManifestCommittable c = new ManifestCommittable(i + 1, watermarks.get(i));
                write.prepareCommit(false, i + 1).forEach(c::addFileCommittable);
                commit.commitMultiple(List.of(c), false);
            }
        }
    }

    /** The same commits through our stream commit. */
    private void ourCommits(String table, List<Long> watermarks) throws Exception {
        dev.streamhouse.storage.table.Table t = ours.table(DB, table);
        try (TableCommit commit = t.newStreamCommit("our-job")) {
            for (int i = 0; i < watermarks.size(); i++) {
                try (dev.streamhouse.storage.table.sink.TableWrite w = t.newWrite()) {
                    for (var r : OurRows.toOurs(batch(i), t.rowType())) {
                        w.write(r);
                    }
                    commit.commit(i + 1, watermarks.get(i), Map.of(), w.prepareCommit());
                }
            }
        }
    }

    private List<String> paimonTags(String table) {
        return ((org.apache.paimon.table.FileStoreTable) paimon.table(DB, table)).tagManager().tags().entrySet().stream()
                .flatMap(e -> e.getValue().stream().sorted().map(n -> n + "@" + e.getKey().id()))
                .collect(Collectors.toList());
    }

    private List<String> ourTags(String table) {
        return TableTags.of(ours.table(DB, table)).list().stream()
                .map(t -> t.name() + "@" + t.snapshot().id()).collect(Collectors.toList());
    }

    private List<CanonicalRow> paimonReadTag(String table, String tag) throws Exception {
        ReadBuilder rb = paimon.table(DB, table).copy(Map.of("scan.tag-name", tag)).newReadBuilder();
        RowType type = rb.readType();
        List<CanonicalRow> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(r -> rows.add(PaimonRows.toCanonical(r, type)));
        }
        return rows;
    }

    private List<CanonicalRow> oursReadTag(String table, String tag) throws Exception {
        var rb = ours.table(DB, table).copy(Map.of("scan.tag-name", tag)).newReadBuilder();
        var type = rb.readType();
        List<CanonicalRow> rows = new ArrayList<>();
        rb.newRead().createReader(rb.newScan().plan().splits()).forEachRemaining(r -> rows.add(OurRows.toCanonical(r, type)));
        return rows;
    }

    private void sameTags(String name, Map<String, String> options, List<Long> watermarks, List<String> expected)
            throws Exception {
        paimon.createTable(DB, "p_" + name, spec(options));
        ours.createTable(DB, "o_" + name, spec(options));
        paimonCommits("p_" + name, watermarks);
        ourCommits("o_" + name, watermarks);
        assertThat(paimonTags("p_" + name)).as("Paimon's automatic tags").isEqualTo(expected);
        assertThat(ourTags("o_" + name)).as("our automatic tags").isEqualTo(expected);
    }

    @Test
    void hourlyTagsWithDelayAndCompletionMatchPaimons() throws Exception {
        List<Long> watermarks = new ArrayList<>(List.of(utc("2024-05-02T10:05"), utc("2024-05-02T11:05"),
                utc("2024-05-02T11:10"), utc("2024-05-02T14:30"), utc("2024-05-02T14:40"), utc("2024-05-02T14:50")));
        watermarks.add(1, null);
        sameTags("hourly", Map.of("tag.creation-period", "hourly", "tag.creation-delay", "10 min",
                "tag.automatic-completion", "true"), watermarks, List.of("2024-05-02 09@1", "2024-05-02 10@4",
                "2024-05-02 11@5", "2024-05-02 12@6", "2024-05-02 13@7"));
    }

    @Test
    void dailyTagsWithoutDashesAndRetentionLimitMatchPaimons() throws Exception {
        sameTags("daily", Map.of("tag.period-formatter", "without_dashes", "tag.num-retained-max", "2"),
                List.of(utc("2024-05-02T10:00"), utc("2024-05-03T00:00"), utc("2024-05-03T08:00"),
                        utc("2024-05-05T01:00"), utc("2024-05-06T09:00")),
                List.of("20240504@4", "20240505@5"));
    }

    @Test
    void periodDurationTagsMatchPaimonsAndEachSideReadsTheOthers() throws Exception {
        sameTags("minutes", Map.of("tag.creation-period-duration", "15 min"),
                List.of(utc("2024-05-02T10:07"), utc("2024-05-02T10:20"), utc("2024-05-02T10:31")),
                List.of("202405020945@1", "202405021000@2", "202405021015@3"));
        Canon.assertSameRowsIgnoringKind("we read Paimon's automatic tag", paimonReadTag("p_minutes", "202405020945"),
                oursReadTag("p_minutes", "202405020945"));
        Canon.assertSameRowsIgnoringKind("Paimon reads our automatic tag", oursReadTag("o_minutes", "202405021015"),
                paimonReadTag("o_minutes", "202405021015"));
        assertThat(oursReadTag("o_minutes", "202405021015")).hasSize(4);
    }
}
