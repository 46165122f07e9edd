package dev.streamhouse.storage.testutils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Self-test of the failure-injecting FileIO. */
class FailingFileIOTest {

    @TempDir
    java.nio.file.Path tmp;

    private final FileIO local = LocalFileIO.INSTANCE;
    private FailingFileIO io;
    private Path dir;

    @BeforeEach
    void setUp() {
        io = FailingFileIO.wrap(local);
        dir = new Path(tmp.toString());
    }

    @AfterEach
    void tearDown() {
        io.release();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ---- counting ----

    @Test
    void countsEachFileIoCallOnceAndLogsIt() throws IOException {
        Path f = new Path(dir, "f");
        io.overwrite(f, bytes("x"));
        io.exists(f);
        io.readAllBytes(f);
        io.createIfAbsent(new Path(dir, "s"), bytes("y"));
        try (PositionOutputStream out = io.newOutputStream(new Path(dir, "g"), false)) {
            out.write(1);
        }
        io.list(dir);
        io.status(f);
        io.rename(f, new Path(dir, "f2"));
        io.mkdirs(new Path(dir, "d"));
        io.delete(new Path(dir, "d"), false);

        assertThat(io.calls()).extracting(FailingFileIO.Call::operation).containsExactly(
                FileOperation.OVERWRITE, FileOperation.EXISTS, FileOperation.OPEN_INPUT,
                FileOperation.CREATE_IF_ABSENT, FileOperation.OPEN_OUTPUT, FileOperation.CLOSE_OUTPUT,
                FileOperation.LIST, FileOperation.STATUS, FileOperation.RENAME, FileOperation.MKDIRS,
                FileOperation.DELETE);
        assertThat(io.callCount()).isEqualTo(11);
        FailingFileIO.Call rename = io.calls().get(8);
        assertThat(rename.number()).isEqualTo(9);
        assertThat(rename.path()).isEqualTo(new Path(dir, "f2"));
        assertThat(rename.otherPath()).isEqualTo(f);
        assertThat(io.failuresInjected()).isZero();
    }

    @Test
    void resetCallCountStartsOver() throws IOException {
        io.exists(dir);
        io.resetCallCount();
        io.exists(dir);

        assertThat(io.callCount()).isEqualTo(1);
        assertThat(io.calls()).hasSize(1);
        assertThat(io.calls().get(0).number()).isEqualTo(1);
    }

    // ---- arm(n) and armOutcomeUnknown(n) ----

    @Test
    void armedCallFailsWithoutBeingPerformedAndOnlyOnce() throws IOException {
        Path target = new Path(dir, "snapshot-1");
        io.exists(dir);
        io.arm(2);

        assertThat(io.exists(dir)).isTrue();
        assertThatThrownBy(() -> io.createIfAbsent(target, bytes("s")))
                .isInstanceOfSatisfying(InjectedIOException.class, e -> {
                    assertThat(e.callNumber()).isEqualTo(3);
                    assertThat(e.operation()).isEqualTo(FileOperation.CREATE_IF_ABSENT);
                    assertThat(e.operationPerformed()).isFalse();
                    assertThat(e).hasMessageContaining("snapshot-1");
                });

        assertThat(local.exists(target)).isFalse();
        assertThat(io.isArmed()).isFalse();
        assertThat(io.createIfAbsent(target, bytes("s"))).isTrue();
        assertThat(io.failuresInjected()).isEqualTo(1);
    }

    @Test
    void outcomeUnknownPerformsTheCallThenFails() throws IOException {
        Path target = new Path(dir, "snapshot/snapshot-1");
        io.armOutcomeUnknown(1);

        assertThatThrownBy(() -> io.createIfAbsent(target, bytes("content")))
                .isInstanceOfSatisfying(InjectedIOException.class, e -> assertThat(e.operationPerformed()).isTrue());

        assertThat(local.readUtf8(target)).isEqualTo("content");
        assertThat(io.createIfAbsent(target, bytes("other"))).as("the retry finds the file").isFalse();
    }

    @Test
    void armingRequiresAPositiveCallNumber() {
        assertThatThrownBy(() -> io.arm(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> io.armOutcomeUnknown(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void failingAnOpenedOutputStreamAfterSuccessClosesIt() throws IOException {
        Path f = new Path(dir, "data-1");
        io.armOutcomeUnknown(1);

        assertThatThrownBy(() -> io.newOutputStream(f, false)).isInstanceOf(InjectedIOException.class);

        assertThat(local.exists(f)).isTrue();
        assertThat(local.delete(f, false)).isTrue();
    }

    // ---- closing output streams ----

    @Test
    void closeOfAnOutputStreamIsAFailurePoint() throws IOException {
        Path f = new Path(dir, "manifest-1");
        PositionOutputStream out = io.newOutputStream(f, false);
        out.write(bytes("abc"));
        assertThat(out.position()).isEqualTo(3);
        io.arm(1);

        assertThatThrownBy(out::close)
                .isInstanceOfSatisfying(InjectedIOException.class,
                        e -> assertThat(e.operation()).isEqualTo(FileOperation.CLOSE_OUTPUT));
        out.close(); // a second close is a no-op, not another counted call

        assertThat(io.callCount()).isEqualTo(2);
        assertThat(local.delete(f, false)).as("the underlying stream was released").isTrue();
    }

    // ---- matching rules ----

    @Test
    void armMatchingFailsEveryMatchingCallUntilDisarmed() throws IOException {
        Path manifest = new Path(dir, "manifest/manifest-1");
        Path snapshot = new Path(dir, "snapshot/snapshot-1");
        io.armMatching(p -> p.name().startsWith("snapshot-"), FileOperation.CREATE_IF_ABSENT);

        assertThatThrownBy(() -> io.createIfAbsent(snapshot, bytes("1"))).isInstanceOf(InjectedIOException.class);
        assertThatThrownBy(() -> io.createIfAbsent(snapshot, bytes("1"))).isInstanceOf(InjectedIOException.class);
        assertThat(io.exists(snapshot)).as("other operations pass").isFalse();
        assertThat(io.createIfAbsent(manifest, bytes("m"))).as("other paths pass").isTrue();
        assertThat(io.isArmed()).isTrue();

        io.disarm();

        assertThat(io.createIfAbsent(snapshot, bytes("1"))).isTrue();
        assertThat(io.failuresInjected()).isEqualTo(2);
    }

    @Test
    void armMatchingWithoutOperationsMatchesAllOperations() throws IOException {
        Path f = new Path(dir, "f");
        io.armMatching(p -> p.equals(f));

        assertThatThrownBy(() -> io.exists(f)).isInstanceOf(InjectedIOException.class);
        assertThatThrownBy(() -> io.overwrite(f, bytes("x"))).isInstanceOf(InjectedIOException.class);
        assertThatThrownBy(() -> io.readAllBytes(f)).isInstanceOf(InjectedIOException.class);
        assertThat(io.exists(dir)).isTrue();
    }

    @Test
    void renameMatchesItsSourceAndItsTarget() throws IOException {
        Path a = new Path(dir, "a");
        Path b = new Path(dir, "b");
        local.overwrite(a, bytes("x"));
        io.armMatching(p -> p.equals(a), FileOperation.RENAME);

        assertThatThrownBy(() -> io.rename(a, b)).isInstanceOf(InjectedIOException.class);
        io.armMatching(p -> p.equals(b), FileOperation.RENAME);
        assertThatThrownBy(() -> io.rename(a, b)).isInstanceOf(InjectedIOException.class);

        assertThat(local.exists(a)).isTrue();
        assertThat(local.exists(b)).isFalse();
    }

    @Test
    void armAfterSuccessFailsTheNextMatchingCallOnceAfterPerformingIt() throws IOException {
        Path snapshot1 = new Path(dir, "snapshot/snapshot-1");
        Path snapshot2 = new Path(dir, "snapshot/snapshot-2");
        io.armAfterSuccess(p -> p.name().startsWith("snapshot-"), FileOperation.CREATE_IF_ABSENT);

        assertThat(io.exists(snapshot1)).isFalse();
        assertThatThrownBy(() -> io.createIfAbsent(snapshot1, bytes("1")))
                .isInstanceOfSatisfying(InjectedIOException.class, e -> assertThat(e.operationPerformed()).isTrue());
        assertThat(io.createIfAbsent(snapshot2, bytes("2"))).isTrue();

        assertThat(local.readUtf8(snapshot1)).isEqualTo("1");
        assertThat(io.isArmed()).isFalse();
    }

    @Test
    void armOnceFailsOnlyTheNthMatchingCall() throws IOException {
        io.armOnce(2, p -> p.name().startsWith("x"), FileOperation.OVERWRITE);
        io.overwrite(new Path(dir, "y1"), bytes("1"));
        io.overwrite(new Path(dir, "x1"), bytes("1"));
        assertThatThrownBy(() -> io.overwrite(new Path(dir, "x2"), bytes("2")))
                .isInstanceOf(InjectedIOException.class);
        assertThat(local.exists(new Path(dir, "x2"))).isFalse();
        io.overwrite(new Path(dir, "x3"), bytes("3"));
        assertThat(io.isArmed()).isFalse();
        assertThat(io.failuresInjected()).isEqualTo(1);
    }

    @Test
    void writesAreNotCountedAndFailOnlyWhenNamed() throws IOException {
        Path f = new Path(dir, "w");
        io.armMatching(p -> true);
        try (PositionOutputStream out = local.newOutputStream(f, false)) {
            out.write(1);
        }
        io.disarm();
        try (PositionOutputStream out = io.newOutputStream(f, true)) {
            io.armMatching(p -> true, FileOperation.OPEN_INPUT);
            out.write(bytes("ab"), 0, 2);
            io.disarm();
            io.armOnce(2, p -> p.equals(f), FileOperation.WRITE);
            out.write(1);
            assertThatThrownBy(() -> out.write(bytes("cd"), 0, 2))
                    .isInstanceOf(InjectedIOException.class)
                    .satisfies(e -> assertThat(((InjectedIOException) e).operation()).isEqualTo(FileOperation.WRITE));
            out.write(2);
        }
        assertThat(io.calls()).extracting(FailingFileIO.Call::operation)
                .containsExactly(FileOperation.OPEN_OUTPUT, FileOperation.CLOSE_OUTPUT);
        assertThat(local.readAllBytes(f)).containsExactly('a', 'b', 1, 2);
    }

    @Test
    void armInThisThreadCountsAndFailsOnlyTheArmingThreadsCalls() throws Exception {
        Path f = new Path(dir, "t");
        io.overwrite(f, bytes("x"));
        int before = io.callsInThisThread();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            io.armInThisThread(2);
            for (int i = 0; i < 3; i++) {
                other.submit(() -> io.exists(f)).get(10, TimeUnit.SECONDS);
            }
            assertThat(io.isArmed()).isTrue();
            io.exists(f);
            assertThatThrownBy(() -> io.delete(f, false)).isInstanceOf(InjectedIOException.class);
            assertThat(local.exists(f)).isTrue();
            assertThat(io.callsInThisThread() - before).isEqualTo(2);
            io.armOutcomeUnknownInThisThread(1);
            assertThatThrownBy(() -> io.delete(f, false)).isInstanceOf(InjectedIOException.class);
            assertThat(local.exists(f)).as("performed before it failed").isFalse();
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void deleteQuietlySwallowsAnInjectedFailure() throws IOException {
        Path f = new Path(dir, "f");
        local.overwrite(f, bytes("x"));
        io.arm(1);

        io.deleteQuietly(f);

        assertThat(io.failuresInjected()).isEqualTo(1);
        assertThat(local.exists(f)).isTrue();
    }

    // ---- random failures ----

    @Test
    void randomFailuresStopAtTheirMaximum() throws IOException {
        io.armRandomly(1.0, 3, 42L);

        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> io.exists(dir)).isInstanceOf(InjectedIOException.class);
        }
        assertThat(io.exists(dir)).isTrue();
        assertThat(io.isArmed()).isFalse();
    }

    @Test
    void randomFailuresAreReproducibleForASeed() {
        assertThat(randomFailurePattern(7L)).isEqualTo(randomFailurePattern(7L));
        assertThat(randomFailurePattern(7L)).contains(true, false);
        assertThatThrownBy(() -> io.armRandomly(1.5, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private List<Boolean> randomFailurePattern(long seed) {
        io.armRandomly(0.3, 1_000, seed);
        List<Boolean> failed = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            try {
                io.exists(dir);
                failed.add(false);
            } catch (IOException e) {
                failed.add(true);
            }
        }
        io.disarm();
        return failed;
    }

    // ---- sharing state ----

    @Test
    void serializedCopiesShareTheCounterAndTheArming() throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(buffer)) {
            out.writeObject(io);
        }
        FileIO copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(buffer.toByteArray()))) {
            copy = (FileIO) in.readObject();
        }
        io.arm(2);

        assertThat(copy.exists(dir)).isTrue();
        assertThatThrownBy(() -> copy.exists(dir)).isInstanceOf(InjectedIOException.class);
        assertThat(io.callCount()).isEqualTo(2);
        assertThat(io.failuresInjected()).isEqualTo(1);
    }

    @Test
    void wrappingUnderAnExistingNameStartsFreshForAllInstances() throws IOException {
        FailingFileIO first = FailingFileIO.wrap("shared-name", local);
        first.exists(dir);
        first.armMatching(p -> true);

        FailingFileIO second = FailingFileIO.wrap("shared-name", local);

        assertThat(first.callCount()).isZero();
        assertThat(first.isArmed()).isFalse();
        assertThat(second.name()).isEqualTo("shared-name");
        second.release();
    }

    @Test
    void releasedInstancesRefuseCalls() {
        FailingFileIO released = FailingFileIO.wrap(local);
        released.release();

        assertThatThrownBy(() -> released.exists(dir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(released.name());
    }

    @Test
    void concurrentCallsAreCountedExactlyAndAnArmedCallFailsOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            io.arm(500);
            List<Future<Integer>> failures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                failures.add(pool.submit(() -> {
                    int failed = 0;
                    for (int i = 0; i < 250; i++) {
                        try {
                            io.exists(dir);
                        } catch (InjectedIOException e) {
                            failed++;
                        }
                    }
                    return failed;
                }));
            }
            int totalFailed = 0;
            for (Future<Integer> f : failures) {
                totalFailed += f.get(30, TimeUnit.SECONDS);
            }

            assertThat(io.callCount()).isEqualTo(2_000);
            assertThat(totalFailed).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- failing each call in turn ----

    /** A miniature commit: manifest, then snapshot (create-if-absent), then the LATEST hint. */
    private void miniCommit(FileIO fileIO) throws IOException {
        Path manifest = new Path(dir, "manifest/manifest-1");
        if (!fileIO.exists(manifest)) {
            try (PositionOutputStream out = fileIO.newOutputStream(manifest, false)) {
                out.write(bytes("files"));
            }
        }
        Path snapshot = new Path(dir, "snapshot/snapshot-1");
        fileIO.createIfAbsent(snapshot, bytes("manifest-1"));
        fileIO.overwrite(new Path(dir, "snapshot/LATEST"), bytes("1"));
    }

    @Test
    void failEachCallInTurnVisitsEveryFailurePoint() throws Exception {
        List<Integer> failedCalls = new ArrayList<>();

        int points = io.failEachCallInTurn(
                () -> {
                    local.delete(dir, true);
                    miniCommit(io);
                },
                (call, thrown) -> {
                    failedCalls.add(call);
                    assertThat(thrown).isInstanceOf(InjectedIOException.class);
                    Path snapshot = new Path(dir, "snapshot/snapshot-1");
                    if (local.exists(snapshot)) {
                        assertThat(local.readUtf8(new Path(dir, "manifest/manifest-1"))).isEqualTo("files");
                    }
                });

        // exists, open, close, createIfAbsent, overwrite
        assertThat(points).isEqualTo(5);
        assertThat(failedCalls).containsExactly(1, 2, 3, 4, 5);
        assertThat(io.isArmed()).isFalse();
        assertThat(local.readUtf8(new Path(dir, "snapshot/LATEST"))).isEqualTo("1");
    }

    @Test
    void failEachCallInTurnAfterSuccessLeavesEachOperationDone() throws Exception {
        List<Boolean> snapshotExisted = new ArrayList<>();

        int points = io.failEachCallInTurnAfterSuccess(
                () -> {
                    local.delete(dir, true);
                    miniCommit(io);
                },
                (call, thrown) -> {
                    assertThat(((InjectedIOException) thrown).operationPerformed()).isTrue();
                    snapshotExisted.add(local.exists(new Path(dir, "snapshot/snapshot-1")));
                });

        assertThat(points).isEqualTo(5);
        assertThat(snapshotExisted).containsExactly(false, false, false, true, true);
    }

    @Test
    void failEachCallInTurnPassesHandledFailuresAsNull() throws Exception {
        List<Throwable> seen = new ArrayList<>();

        int points = io.failEachCallInTurn(
                () -> {
                    try {
                        io.exists(dir);
                    } catch (InjectedIOException retried) {
                        io.exists(dir);
                    }
                },
                (call, thrown) -> seen.add(thrown));

        assertThat(points).isEqualTo(1);
        assertThat(seen).containsExactly((Throwable) null);
    }

    @Test
    void failEachCallInTurnReportsOtherExceptions() {
        assertThatThrownBy(() -> io.failEachCallInTurn(
                        () -> {
                            io.exists(dir);
                            throw new IllegalStateException("a real bug");
                        },
                        (call, thrown) -> {}))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("other than the failure injected")
                .hasRootCauseMessage("a real bug");
    }

    @Test
    void failEachCallInTurnPropagatesFailedChecks() {
        assertThatThrownBy(() -> io.failEachCallInTurn(
                        () -> io.exists(dir),
                        (call, thrown) -> assertThat(call).isEqualTo(99)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("99");
    }

    @Test
    void injectedFailuresAreFoundInCauseChains() {
        InjectedIOException injected = new InjectedIOException(1, FileOperation.LIST, dir, false);
        RuntimeException wrapped = new RuntimeException(new IOException(injected));
        IOException suppressing = new IOException("cleanup");
        suppressing.addSuppressed(injected);

        assertThat(InjectedIOException.isInjected(wrapped)).isTrue();
        assertThat(InjectedIOException.isInjected(suppressing)).isTrue();
        assertThat(InjectedIOException.isInjected(new IOException("disk full"))).isFalse();
        assertThat(InjectedIOException.isInjected(null)).isFalse();
    }
}
