package dev.streamhouse.flink.sink.compact;

import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.AppendCompactTask;
import dev.streamhouse.storage.table.sink.AppendCompactWorker;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Either;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A compaction worker of a streaming write to an append table without buckets (as many as writers):
 * passes the writers' committables on to the committer unchanged and runs the coordinator's
 * {@link AppendCompactTask}s ({@link AppendCompactWorker}) one after another on a thread of its own.
 *
 * <p>Just before each checkpoint barrier it hands the finished compactions, in the order their tasks
 * arrived and up to the first unfinished one, to the committer as one committable of that checkpoint;
 * the rest follow with later checkpoints. At the end of its input it waits for all of them. A failed
 * compaction fails the job (its files were deleted by the compaction). {@link #close()} stops the
 * thread and deletes the output of compactions it never handed out.
 */
public final class AppendCompactWorkerOperator extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<Either<Committable, AppendCompactTask>, Committable>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final Table table;

    private transient AppendCompactWorker worker;
    private transient ExecutorService executor;
    private transient Deque<Future<CommitMessage>> running;

    public AppendCompactWorkerOperator(Table table) {
        this.table = Objects.requireNonNull(table, "table");
    }

    @Override
    public void open() throws Exception {
        super.open();
        worker = AppendCompactWorker.of(table);
        running = new ArrayDeque<>();
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "append-compaction-worker-" + table.fullName());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void processElement(StreamRecord<Either<Committable, AppendCompactTask>> element) {
        Either<Committable, AppendCompactTask> value = element.getValue();
        if (value.isLeft()) {
            output.collect(new StreamRecord<>(value.left()));
            return;
        }
        AppendCompactTask task = value.right();
        running.add(executor.submit(() -> worker.compact(task)));
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        handOut(Committable.ofCheckpoint(checkpointId, finished(false)));
    }

    @Override
    public void endInput() throws Exception {
        handOut(Committable.ofEndOfInput(finished(true)));
    }

    private void handOut(Committable committable) {
        if (!committable.messages().isEmpty()) {
            output.collect(new StreamRecord<>(committable.forTable(table.fullName())));
        }
    }

    /** The compactions finished in arrival order, up to the first one still running (unless waiting). */
    private List<CommitMessage> finished(boolean wait) throws IOException, InterruptedException {
        List<CommitMessage> out = new ArrayList<>();
        while (!running.isEmpty() && (wait || running.peek().isDone())) {
            try {
                out.add(running.peek().get());
            } catch (ExecutionException e) {
                worker.discard(out);
                Throwable cause = e.getCause();
                throw new IOException("Cannot compact table " + table.fullName() + ": " + cause, cause);
            }
            running.poll();
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        try {
            if (executor != null) {
                executor.shutdownNow();
                executor.awaitTermination(2, TimeUnit.MINUTES);
                List<CommitMessage> unsent = new ArrayList<>();
                for (Future<CommitMessage> f : running) {
                    if (f.isDone() && !f.isCancelled()) {
                        try {
                            unsent.add(f.get());
                        } catch (ExecutionException e) {
                            // it failed and deleted what it wrote
                        }
                    }
                }
                running.clear();
                if (!unsent.isEmpty()) {
                    LOG.info("Deleting the output of {} compactions of table {} that were never handed out",
                            unsent.size(), table.fullName());
                    worker.discard(unsent);
                }
                executor = null;
            }
        } finally {
            super.close();
        }
    }
}
