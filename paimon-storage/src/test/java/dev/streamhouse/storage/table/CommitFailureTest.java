package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A write + commit whose file system fails at any single call, before or after performing it: the
 * table always shows either the previous snapshot or the complete new one, never part of it, and
 * finishing the interrupted work afterwards commits every row exactly once.
 */
class CommitFailureTest {
    private static final List<InternalRow> BATCH_1 = TestTables.rows(0, 30, 3);
    private static final List<InternalRow> BATCH_2 = TestTables.rows(30, 20, 4);

    @TempDir
    java.nio.file.Path tmp;

    private final FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);

    /** What the current attempt got to, so the check can finish its work. */
    private Path root;
    private TableWrite write;
    private BatchTableCommit commit;
    private List<CommitMessage> messages;
    private boolean committed;
    private int attempt;

    @AfterEach
    void release() {
        io.release();
    }

    private void scenario() throws Exception {
        root = new Path(tmp.resolve("t" + attempt++).toString());
        write = null;
        commit = null;
        messages = null;
        committed = false;
        FileStoreTable setup = TestTables.create(io.delegate(), root, TestTables.simpleSchema());
        TestTables.write(setup, BATCH_1);

        FileStoreTable table = FileStoreTable.load(io, root, "default.test");
        write = table.newWrite();
        for (InternalRow r : BATCH_2) {
            write.write(r);
        }
        messages = write.prepareCommit();
        commit = table.newBatchCommit();
        commit.commit(messages);
        committed = true;
    }

    private void checkAndFinish(int failedCall, Throwable thrown) throws Exception {
        FileIO plain = io.delegate();
        List<String> visible = TestTables.readAll(FileStoreTable.load(plain, root, "default.test"));
        List<String> before = TestTables.show(BATCH_1);
        List<String> after = TestTables.show(concat(BATCH_1, BATCH_2));
        assertThat(visible).as("rows visible after call %s failed (%s)", failedCall, thrown)
                .satisfiesAnyOf(v -> assertThat(v).isEqualTo(before), v -> assertThat(v).isEqualTo(after));

        // Finish what the failure interrupted, as a caller would.
        if (!committed) {
            if (messages != null) {
                commit.commit(messages);
            } else {
                if (write != null) {
                    write.close();
                }
                FileStoreTable table = FileStoreTable.load(plain, root, "default.test");
                TestTables.write(table, BATCH_2);
            }
        }
        assertThat(TestTables.readAll(FileStoreTable.load(plain, root, "default.test")))
                .as("rows after finishing the work interrupted at call %s", failedCall)
                .isEqualTo(after);
    }

    @Test
    void failureBeforeAnyCallIsHarmless() throws Exception {
        int points = io.failEachCallInTurn(this::scenario, this::checkAndFinish);
        assertThat(points).isGreaterThan(20);
    }

    @Test
    void failureAfterAnyCallIsHarmless() throws Exception {
        int points = io.failEachCallInTurnAfterSuccess(this::scenario, this::checkAndFinish);
        assertThat(points).isGreaterThan(20);
    }

    private static List<InternalRow> concat(List<InternalRow> a, List<InternalRow> b) {
        List<InternalRow> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
