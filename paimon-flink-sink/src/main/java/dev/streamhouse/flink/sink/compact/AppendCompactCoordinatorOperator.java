package dev.streamhouse.flink.sink.compact;

import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.storage.options.StreamReadOptions;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.AppendCompactCoordinator;
import dev.streamhouse.storage.table.sink.AppendCompactTask;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Either;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The compaction coordinator of a streaming write to an append table without buckets (parallelism
 * 1), as Apache Paimon 1.3.1's sink has one: it passes the writers' committables on unchanged (left)
 * and sends the {@link AppendCompactTask}s that storage's {@link AppendCompactCoordinator} plans
 * (right) to the workers ({@link AppendCompactWorkerOperator}).
 *
 * <p>Every {@code continuous.discovery-interval} a planning thread runs the coordinator over the
 * snapshots committed since (so planning never delays a checkpoint barrier), as long as fewer than
 * {@value #MAX_PENDING_TASKS} tasks wait; on the same interval the operator sends the waiting tasks
 * out. It keeps no state: a restored job's coordinator starts again from the latest snapshot. A
 * planning failure fails the job at the next record or timer.
 */
public final class AppendCompactCoordinatorOperator
        extends AbstractStreamOperator<Either<Committable, AppendCompactTask>>
        implements OneInputStreamOperator<Committable, Either<Committable, AppendCompactTask>>,
        ProcessingTimeCallback {
    private static final long serialVersionUID = 1L;
    static final int MAX_PENDING_TASKS = 5000;

    private final Table table;

    private transient LinkedBlockingQueue<AppendCompactTask> tasks;
    private transient ScheduledExecutorService planner;
    private transient volatile Throwable planningFailure;

    public AppendCompactCoordinatorOperator(Table table) {
        this.table = Objects.requireNonNull(table, "table");
    }

    @Override
    public void open() throws Exception {
        super.open();
        int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        if (parallelism != 1) {
            throw new IllegalStateException("Cannot run the compaction coordinator of table " + table.fullName()
                    + " with parallelism " + parallelism + ": it must run as a single subtask");
        }
        long intervalMillis = table.schema().tableOptions().get(StreamReadOptions.CONTINUOUS_DISCOVERY_INTERVAL)
                .toMillis();
        AppendCompactCoordinator coordinator = AppendCompactCoordinator.of(table);
        tasks = new LinkedBlockingQueue<>();
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "compaction-coordinator-" + table.fullName());
            t.setDaemon(true);
            return t;
        });
        planner = executor;
        planner.scheduleWithFixedDelay(() -> plan(coordinator), 0, intervalMillis, TimeUnit.MILLISECONDS);
        getProcessingTimeService().scheduleWithFixedDelay(this, intervalMillis, intervalMillis);
    }

    /** On the planning thread: plans until nothing new comes out or enough tasks wait. */
    private void plan(AppendCompactCoordinator coordinator) {
        if (planningFailure != null) {
            return;
        }
        try {
            while (tasks.size() < MAX_PENDING_TASKS) {
                List<AppendCompactTask> planned = coordinator.run();
                if (planned.isEmpty()) {
                    return;
                }
                tasks.addAll(planned);
            }
        } catch (Throwable t) {
            LOG.error("Planning the compactions of table {} failed", table.fullName(), t);
            planningFailure = t;
        }
    }

    @Override
    public void onProcessingTime(long time) {
        checkPlanning();
        AppendCompactTask task;
        while ((task = tasks.poll()) != null) {
            output.collect(new StreamRecord<>(Either.Right(task)));
        }
    }

    @Override
    public void processElement(StreamRecord<Committable> element) {
        checkPlanning();
        output.collect(new StreamRecord<>(Either.Left(element.getValue())));
    }

    private void checkPlanning() {
        Throwable failure = planningFailure;
        if (failure != null) {
            throw new IllegalStateException("Cannot plan the compactions of table " + table.fullName() + ": "
                    + failure, failure);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (planner != null) {
                planner.shutdownNow();
                planner.awaitTermination(1, TimeUnit.MINUTES);
                planner = null;
            }
        } finally {
            super.close();
        }
    }
}
