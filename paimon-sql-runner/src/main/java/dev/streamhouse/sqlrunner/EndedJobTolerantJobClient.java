package dev.streamhouse.sqlrunner;

import dev.streamhouse.sqlrunner.compat.CoordinationForwarder;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway;

/**
 * A job's client whose {@link #cancel()} of a job that has already ended succeeds instead of failing;
 * everything else is passed to the client of Flink's local executor.
 *
 * <p>Why: when a job fails, Flink 1.20's {@code TableEnvironmentImpl} (with {@code table.dml-sync})
 * cancels it before reporting the failure. With the local executor the job's MiniCluster is already
 * shut down by then, so the client's {@code cancel()} throws {@code IllegalStateException}
 * ("MiniCluster is not yet running ...") and that exception, not the job's failure, reaches the user.
 * Cancelling a job that has ended has nothing to do, so here it just completes.
 *
 * <p>Also a {@link CoordinationRequestGateway} like the wrapped client: that is how the results of a
 * SELECT are fetched ({@link CoordinationForwarder}: the request's signature differs between Flink lines).
 */
final class EndedJobTolerantJobClient extends CoordinationForwarder implements JobClient {
    private final JobClient job;
    private final CoordinationRequestGateway coordination;

    EndedJobTolerantJobClient(JobClient job) {
        if (!(job instanceof CoordinationRequestGateway)) {
            throw new IllegalArgumentException("Expected the client of a local job, got " + job.getClass().getName());
        }
        this.job = job;
        this.coordination = (CoordinationRequestGateway) job;
    }

    /** Whether the job has reached a terminal state (its result, success or failure, is known). */
    private boolean hasEnded() {
        return job.getJobExecutionResult().isDone();
    }

    @Override
    public CompletableFuture<Void> cancel() {
        if (hasEnded()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> cancelled;
        try {
            cancelled = job.cancel();
        } catch (IllegalStateException clusterGone) {
            // The job ended, and its MiniCluster shut down, after the check above.
            if (hasEnded()) {
                return CompletableFuture.completedFuture(null);
            }
            throw clusterGone;
        }
        return cancelled.handle((done, failure) -> {
            if (failure != null && !hasEnded()) {
                throw failure instanceof CompletionException ? (CompletionException) failure : new CompletionException(failure);
            }
            return null;
        });
    }

    @Override
    public JobID getJobID() {
        return job.getJobID();
    }

    @Override
    public CompletableFuture<JobStatus> getJobStatus() {
        return job.getJobStatus();
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(boolean advanceToEndOfEventTime, String savepointDirectory,
                                                       SavepointFormatType formatType) {
        return job.stopWithSavepoint(advanceToEndOfEventTime, savepointDirectory, formatType);
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(String savepointDirectory, SavepointFormatType formatType) {
        return job.triggerSavepoint(savepointDirectory, formatType);
    }

    @Override
    public CompletableFuture<Map<String, Object>> getAccumulators() {
        return job.getAccumulators();
    }

    @Override
    public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
        return job.getJobExecutionResult();
    }

    @Override
    public void reportHeartbeat(long expiredTimestamp) {
        job.reportHeartbeat(expiredTimestamp);
    }

    @Override
    protected CoordinationRequestGateway coordination() {
        return coordination;
    }
}
