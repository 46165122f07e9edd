package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A {@link FileIO} decorator for failure tests: it counts the I/O calls made through it and, once
 * armed, makes chosen calls throw an {@link InjectedIOException}, either before the operation (it
 * did not happen) or after it ("outcome unknown": it happened, but the caller is told it failed, like
 * a commit whose acknowledgement was lost).
 *
 * <p>Counted calls are the {@link FileOperation}s: every FileIO method, plus {@code close()} of
 * output streams. Default methods built on them ({@code readAllBytes}, {@code size},
 * {@code deleteQuietly}) count as the calls they make. Calls the delegate makes internally (e.g. the
 * temp file and rename inside its {@code createIfAbsent}) are not counted: that is one call.
 *
 * <p>Arming (each arming replaces the previous one):
 * <ul>
 *   <li>{@link #arm(int)}: the n-th call from now fails, not performed; once.
 *   <li>{@link #armOutcomeUnknown(int)}: the n-th call from now is performed, then fails; once.
 *   <li>{@link #armMatching(Predicate, FileOperation...)}: every matching call fails, not performed,
 *       until {@link #disarm()}.
 *   <li>{@link #armAfterSuccess(Predicate, FileOperation...)}: the next matching call is performed,
 *       then fails; once.
 *   <li>{@link #armOnce(int, Predicate, FileOperation...)}: the n-th matching call (writes
 *       included if {@link FileOperation#WRITE} is named) fails, not performed; once.
 *   <li>{@link #armInThisThread(int)}, {@link #armOutcomeUnknownInThisThread(int)}: the n-th call of
 *       the calling thread fails (not performed, or performed); once.
 *   <li>{@link #armRandomly(double, int, long)}: calls fail at random, not performed, up to a count.
 * </ul>
 *
 * <p>To exercise every failure point of an operation use {@link #failEachCallInTurn} (or
 * {@link #failEachCallInTurnAfterSuccess}):
 * <pre>{@code
 * FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);
 * int points = io.failEachCallInTurn(
 *         () -> commit(io, ...),
 *         (call, error) -> assertTableIsConsistent(LocalFileIO.INSTANCE));
 * }</pre>
 *
 * <p>Serialization: the instance holds only its name and delegate; the counter and the armed rule
 * live in a static registry under the name, so copies made by Java serialization in the same JVM (as
 * Flink does for operators in a MiniCluster) share them. {@link #release()} removes the entry.
 * Thread-safe.
 */
public final class FailingFileIO implements FileIO {
    private static final long serialVersionUID = 1L;
    private static final Map<String, FailureState> REGISTRY = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_ID = new AtomicLong();

    private final String name;
    private final FileIO delegate;

    private FailingFileIO(String name, FileIO delegate) {
        this.name = name;
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** Wraps {@code delegate} under a new unique name, disarmed, with a call count of 0. */
    public static FailingFileIO wrap(FileIO delegate) {
        return wrap("failing-file-io-" + NEXT_ID.incrementAndGet(), delegate);
    }

    /**
     * Wraps {@code delegate} under {@code name}, starting fresh (disarmed, count 0). An earlier
     * FailingFileIO of the same name (and its copies) then shares the fresh state.
     */
    public static FailingFileIO wrap(String name, FileIO delegate) {
        REGISTRY.put(name, new FailureState());
        return new FailingFileIO(name, delegate);
    }

    /** One counted call, as kept in {@link #calls()}. {@code otherPath} is the source of a rename. */
    public record Call(int number, FileOperation operation, Path path, Path otherPath) {
        @Override
        public String toString() {
            return "#" + number + " " + operation + " " + (otherPath == null ? "" : otherPath + " -> ") + path;
        }
    }

    /** Runs one scenario attempt; any exception ends the attempt. */
    @FunctionalInterface
    public interface Scenario {
        void run() throws Exception;
    }

    /** Checks invariants after an attempt in which a call failed (the FileIO is disarmed meanwhile). */
    @FunctionalInterface
    public interface FailureCheck {
        /**
         * @param failedCall the number of the failed call, counted from the start of the attempt
         * @param thrown what the attempt threw (always an injected failure or caused by one), or null
         *     if the scenario handled the failure itself and completed
         */
        void check(int failedCall, Throwable thrown) throws Exception;
    }

    public String name() {
        return name;
    }

    public FileIO delegate() {
        return delegate;
    }

    // ---- arming ----

    /** The {@code n}-th call from now (1 = the next call) fails without being performed. Once. */
    public FailingFileIO arm(int n) {
        state().armAtCall(n, FailureRule.Timing.BEFORE);
        return this;
    }

    /** The {@code n}-th call from now is performed, then fails ("outcome unknown"). Once. */
    public FailingFileIO armOutcomeUnknown(int n) {
        state().armAtCall(n, FailureRule.Timing.AFTER);
        return this;
    }

    /**
     * Every call of the given operations (any operation if none given) on a path accepted by
     * {@code paths} fails without being performed, until {@link #disarm()}.
     */
    public FailingFileIO armMatching(Predicate<Path> paths, FileOperation... operations) {
        state().arm(new FailureRule.Matching(paths, operations, FailureRule.Timing.BEFORE, Integer.MAX_VALUE));
        return this;
    }

    /**
     * The next call of the given operations (any operation if none given) on a path accepted by
     * {@code paths} is performed and then fails ("outcome unknown"). Once.
     */
    public FailingFileIO armAfterSuccess(Predicate<Path> paths, FileOperation... operations) {
        state().arm(new FailureRule.Matching(paths, operations, FailureRule.Timing.AFTER, 1));
        return this;
    }

    /**
     * The {@code nth} call from now (1 = the next) of the given operations (any operation if none
     * given; {@link FileOperation#WRITE} only if named) on a path accepted by {@code paths} fails
     * without being performed. Once.
     */
    public FailingFileIO armOnce(int nth, Predicate<Path> paths, FileOperation... operations) {
        if (nth < 1) {
            throw new IllegalArgumentException("The matching call to fail is counted from 1, got " + nth);
        }
        state().arm(new FailureRule.NthMatching(nth, paths, operations, FailureRule.Timing.BEFORE));
        return this;
    }

    /**
     * The {@code n}-th call from now that the <em>calling thread</em> makes fails without being
     * performed; calls of other threads (e.g. the writers of a Flink job while its committer commits)
     * pass and do not count. Once.
     */
    public FailingFileIO armInThisThread(int n) {
        return armInThisThread(n, FailureRule.Timing.BEFORE);
    }

    /** Like {@link #armInThisThread}, but the failing call is performed before it fails. Once. */
    public FailingFileIO armOutcomeUnknownInThisThread(int n) {
        return armInThisThread(n, FailureRule.Timing.AFTER);
    }

    private FailingFileIO armInThisThread(int n, FailureRule.Timing timing) {
        if (n < 1) {
            throw new IllegalArgumentException("The call to fail is counted from 1, got " + n);
        }
        state().arm(new FailureRule.InThread(Thread.currentThread(), n, timing));
        return this;
    }

    /**
     * Each call fails (not performed) with {@code probability}, until {@code maxFailures} failures
     * were injected. Deterministic for a given seed only if the calls come from one thread.
     */
    public FailingFileIO armRandomly(double probability, int maxFailures, long seed) {
        if (probability < 0 || probability > 1 || maxFailures < 0) {
            throw new IllegalArgumentException(
                    "Cannot arm randomly: probability must be in [0, 1] and maxFailures >= 0, got "
                            + probability + " and " + maxFailures);
        }
        state().arm(new FailureRule.Randomly(probability, maxFailures, seed));
        return this;
    }

    /** Lets every call through from now on. */
    public void disarm() {
        state().disarm();
    }

    /** Whether an armed rule may still fail a call (one-shot rules disarm once they fired). */
    public boolean isArmed() {
        return state().armed();
    }

    // ---- observing ----

    /**
     * Counted calls the calling thread made through this FileIO (and its serialized copies) since
     * creation; the difference before and after an operation is the number of its calls.
     */
    public int callsInThisThread() {
        return state().callsInThisThread();
    }

    /** Calls made since creation or {@link #resetCallCount()}. */
    public int callCount() {
        return state().calls();
    }

    public void resetCallCount() {
        state().resetCalls();
    }

    /** The calls made since creation or {@link #resetCallCount()} (the first 100,000). */
    public List<Call> calls() {
        return state().log();
    }

    /** Failures injected since creation. */
    public int failuresInjected() {
        return state().injected();
    }

    /** Drops the shared state; later calls through this name fail with IllegalStateException. */
    public void release() {
        REGISTRY.remove(name);
    }

    // ---- exhaustive failure loops ----

    /**
     * Runs {@code scenario} with its 1st call failing (not performed), then again with its 2nd call
     * failing, and so on, until an attempt completes without reaching the armed call. After each
     * attempt in which a call failed, {@code afterFailure} checks invariants. An exception that is not
     * caused by the injected failure fails the test at once. Each attempt starts with the state the
     * previous one left; make the scenario reset what it needs, through {@link #delegate()} (whose
     * calls are not counted).
     *
     * @return the number of failure points exercised (= calls of a failure-free attempt)
     */
    public int failEachCallInTurn(Scenario scenario, FailureCheck afterFailure) throws Exception {
        return FailurePointLoop.run(state(), scenario, afterFailure, FailureRule.Timing.BEFORE);
    }

    /** Like {@link #failEachCallInTurn}, but the failing call is performed before it fails. */
    public int failEachCallInTurnAfterSuccess(Scenario scenario, FailureCheck afterFailure) throws Exception {
        return FailurePointLoop.run(state(), scenario, afterFailure, FailureRule.Timing.AFTER);
    }

    // ---- FileIO ----

    @Override
    public SeekableInputStream newInputStream(Path path) throws IOException {
        return call(FileOperation.OPEN_INPUT, path, null, () -> delegate.newInputStream(path));
    }

    @Override
    public PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException {
        PositionOutputStream out = call(FileOperation.OPEN_OUTPUT, path, null,
                () -> delegate.newOutputStream(path, overwrite));
        return new FailingOutputStream(out, path, this);
    }

    @Override
    public FileStatus status(Path path) throws IOException {
        return call(FileOperation.STATUS, path, null, () -> delegate.status(path));
    }

    @Override
    public List<FileStatus> list(Path directory) throws IOException {
        return call(FileOperation.LIST, directory, null, () -> delegate.list(directory));
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return call(FileOperation.EXISTS, path, null, () -> delegate.exists(path));
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        return call(FileOperation.DELETE, path, null, () -> delegate.delete(path, recursive));
    }

    @Override
    public void mkdirs(Path path) throws IOException {
        call(FileOperation.MKDIRS, path, null, () -> {
            delegate.mkdirs(path);
            return null;
        });
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        return call(FileOperation.RENAME, dst, src, () -> delegate.rename(src, dst));
    }

    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        return call(FileOperation.CREATE_IF_ABSENT, path, null, () -> delegate.createIfAbsent(path, content));
    }

    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        call(FileOperation.OVERWRITE, path, null, () -> {
            delegate.overwrite(path, content);
            return null;
        });
    }

    // ---- the failure point ----

    /** Lets a write to {@code path} through, or fails it before its bytes are written. */
    void beforeWrite(Path path) throws IOException {
        FailureState.Verdict verdict = state().onWrite(path);
        if (verdict != null) {
            throw new InjectedIOException(verdict.callNumber(), FileOperation.WRITE, path, false);
        }
    }

    /** An I/O action of the delegate. */
    @FunctionalInterface
    interface IoAction<T> {
        T run() throws IOException;
    }

    /** Releases resources when a call is failed without being performed. */
    @FunctionalInterface
    interface IoRelease {
        void run() throws IOException;
    }

    <T> T call(FileOperation operation, Path path, Path otherPath, IoAction<T> action) throws IOException {
        return call(operation, path, otherPath, action, null);
    }

    <T> T call(FileOperation operation, Path path, Path otherPath, IoAction<T> action, IoRelease releaseIfNotPerformed)
            throws IOException {
        FailureState.Verdict verdict = state().onCall(operation, path, otherPath);
        if (verdict.timing() == FailureRule.Timing.BEFORE) {
            InjectedIOException failure = new InjectedIOException(verdict.callNumber(), operation, path, false);
            if (releaseIfNotPerformed != null) {
                try {
                    releaseIfNotPerformed.run();
                } catch (IOException e) {
                    failure.addSuppressed(e);
                }
            }
            throw failure;
        }
        T result = action.run();
        if (verdict.timing() == FailureRule.Timing.AFTER) {
            InjectedIOException failure = new InjectedIOException(verdict.callNumber(), operation, path, true);
            if (result instanceof Closeable) {
                try {
                    ((Closeable) result).close();
                } catch (IOException e) {
                    failure.addSuppressed(e);
                }
            }
            throw failure;
        }
        return result;
    }

    private FailureState state() {
        FailureState state = REGISTRY.get(name);
        if (state == null) {
            throw new IllegalStateException("FailingFileIO '" + name + "' was released, or was deserialized in "
                    + "another JVM than the one that created it; its failure state lives in a static registry");
        }
        return state;
    }

    @Override
    public String toString() {
        return "FailingFileIO[" + name + " over " + delegate + "]";
    }
}
