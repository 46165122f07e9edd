package dev.streamhouse.storage.table;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.ChangelogRecords;
import dev.streamhouse.storage.testutils.ChangelogRecords.Change;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The changelog of {@code changelog-producer} = lookup across failures and with its timing options:
 * level-0 files whose compaction was lost (a job failed after the APPEND snapshot of a checkpoint and
 * before its COMPACT snapshot; the restored commit drops compactions) get their changelog at the next
 * commit of a resumed writer ({@code TableWrite.resumeLevelZero}), not only when their bucket gets a
 * new row; {@code lookup-wait} = false and {@code lookup-compact} = GENTLE delay the changelog to a
 * later commit but never lose it.
 */
class LookupChangelogRecoveryTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable create(String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("changelog-producer", "lookup");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
    }

    private static void write(TableWrite w, int from, int to, String v) throws Exception {
        for (int id = from; id < to; id++) {
            w.write(GenericRow.of(id, BinaryString.fromString(v + id)));
        }
    }

    /** The table as the whole changelog replays it (checking that each retraction matches). */
    private static List<String> replay(FileStoreTable table) throws Exception {
        Map<Integer, String> rows = new TreeMap<>();
        for (Change c : ChangelogRecords.read(table)) {
            String row = c.value().field(0) + "," + c.value().field(1);
            switch (c.value().rowKind()) {
                case INSERT:
                case UPDATE_AFTER:
                    assertThat(rows.put(c.value().intAt(0), row)).as("%s of a present key", c.show()).isNull();
                    break;
                default:
                    assertThat(rows.remove(c.value().intAt(0))).as("retraction %s", c.show()).isEqualTo(row);
            }
        }
        List<String> out = new ArrayList<>(rows.values());
        out.sort(null);
        return out;
    }

    private static List<String> table(FileStoreTable table) throws Exception {
        List<String> out = new ArrayList<>();
        for (String r : TestTables.readAll(table)) {
            out.add(r.substring(3, r.length() - 1).replace(", ", ","));
        }
        out.sort(null);
        return out;
    }

    /** Commits only the data increments of {@code messages}, as a restored committer does, and aborts the rest. */
    private static void commitDataOnly(TableCommit commit, long id, List<CommitMessage> messages) {
        List<CommitMessage> data = new ArrayList<>();
        List<CommitMessage> compactions = new ArrayList<>();
        for (CommitMessage m : messages) {
            data.add(new CommitMessage(m.partition(), m.bucket(), m.totalBuckets(), m.dataIncrement(),
                    CompactIncrement.EMPTY));
            if (!m.compactIncrement().isEmpty()) {
                compactions.add(new CommitMessage(m.partition(), m.bucket(), m.totalBuckets(), DataIncrement.EMPTY,
                        m.compactIncrement()));
            }
        }
        assertThat(compactions).as("the checkpoint compacted its level 0 with changelog").isNotEmpty();
        commit.commit(id, data);
        commit.abort(compactions);
    }

    @Test
    void levelZeroOfALostCompactionGetsItsChangelogWhenTheWriterResumes() throws Exception {
        FileStoreTable table = create();
        TableCommit commit = table.newStreamCommit("job");
        try (TableWrite w = table.newWrite()) {
            write(w, 0, 20, "a");
            commit.commit(1, w.prepareCommit());
            write(w, 0, 10, "b");
            commitDataOnly(commit, 2, w.prepareCommit());
        }
        assertThat(replay(table)).as("the updates' changelog was lost with the compaction")
                .isNotEqualTo(table(table));

        try (TableWrite restarted = table.newWrite()) {
            restarted.resumeLevelZero((partition, bucket) -> true);
            List<CommitMessage> messages = restarted.prepareCommit();
            assertThat(messages).anySatisfy(m -> assertThat(m.compactIncrement().changelogFiles()).isNotEmpty());
            commit.commit(3, messages);
        }
        assertThat(replay(table)).isEqualTo(table(table));
        assertThat(table(table)).hasSize(20).contains("0,b0", "9,b9", "10,a10");
    }

    @Test
    void aFullCompactionTableResumesItsLevelZeroToo() throws Exception {
        FileStoreTable table = create("changelog-producer", "full-compaction");
        TableCommit commit = table.newStreamCommit("job");
        try (TableWrite w = table.newWrite()) {
            write(w, 0, 20, "a");
            commit.commit(1, w.prepareCommit());
            write(w, 0, 10, "b");
            commitDataOnly(commit, 2, w.prepareCommit());
        }
        assertThat(replay(table)).isNotEqualTo(table(table));
        try (TableWrite restarted = table.newWrite()) {
            restarted.resumeLevelZero((partition, bucket) -> true);
            commit.commit(3, restarted.prepareCommit());
        }
        assertThat(replay(table)).isEqualTo(table(table));
    }

    @Test
    void aWriterThatDoesNotResumeLeavesTheChangelogWaiting() throws Exception {
        FileStoreTable table = create();
        TableCommit commit = table.newStreamCommit("job");
        try (TableWrite w = table.newWrite()) {
            write(w, 0, 20, "a");
            commit.commit(1, w.prepareCommit());
            write(w, 0, 10, "b");
            commitDataOnly(commit, 2, w.prepareCommit());
        }
        try (TableWrite restarted = table.newWrite()) {
            assertThat(restarted.prepareCommit()).isEmpty();
        }
        assertThat(replay(table)).isNotEqualTo(table(table));
    }

    @Test
    void resumingOpensOnlyOwnedBuckets() throws Exception {
        FileStoreTable table = create();
        TableCommit commit = table.newStreamCommit("job");
        try (TableWrite w = table.newWrite()) {
            write(w, 0, 20, "a");
            commitDataOnly(commit, 1, w.prepareCommit());
        }
        try (TableWrite restarted = table.newWrite()) {
            restarted.resumeLevelZero((partition, bucket) -> bucket == 1);
            List<CommitMessage> messages = restarted.prepareCommit();
            assertThat(messages).isNotEmpty().allSatisfy(m -> assertThat(m.bucket()).isEqualTo(1));
        }
    }

    @Test
    void withoutLookupWaitTheChangelogArrivesWithALaterCommit() throws Exception {
        FileStoreTable table = create("lookup-wait", "false");
        TableCommit commit = table.newStreamCommit("job");
        try (TableWrite w = table.newWrite()) {
            write(w, 0, 20, "a");
            commit.commit(1, w.prepareCommit());
            write(w, 0, 5, "b");
            commit.commit(2, w.prepareCommit());
            // The compaction runs in the background: later commits carry it once it is done.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            for (int c = 3; !replay(table).equals(table(table)) && System.nanoTime() < deadline; c++) {
                commit.commit(c, w.prepareCommit());
                Thread.sleep(10);
            }
        }
        assertThat(replay(table)).isEqualTo(table(table));
        assertThat(ChangelogRecords.read(table)).allSatisfy(c -> assertThat(c.commitKind()).isEqualTo(CommitKind.COMPACT));
    }

    @Test
    void gentleLookupCompactionMovesLevelZeroEveryFewCommits() throws Exception {
        FileStoreTable table = create("lookup-compact", "GENTLE", "lookup-compact.max-interval", "3",
                "num-sorted-run.compaction-trigger", "3", "bucket", "1");
        TableCommit commit = table.newStreamCommit("job");
        List<Integer> commitsWithChangelog = new ArrayList<>();
        try (TableWrite w = table.newWrite()) {
            for (int c = 1; c <= 6; c++) {
                write(w, c, c + 1, "v");
                List<CommitMessage> messages = w.prepareCommit();
                if (messages.stream().anyMatch(m -> !m.compactIncrement().changelogFiles().isEmpty())) {
                    commitsWithChangelog.add(c);
                }
                commit.commit(c, messages);
            }
        }
        // Level 0 moves up at every third commit; between them only when the ordinary compaction picks
        // level-0 runs (three sorted runs reach the trigger), never at the first two commits.
        assertThat(commitsWithChangelog).contains(3, 6).doesNotContain(1, 2);
        assertThat(replay(table)).isEqualTo(table(table));
    }
}
