package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.sqlrunner.compat.CoordinationForwarder;
import dev.streamhouse.sqlrunner.compat.CoordinationTargets;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.junit.jupiter.api.Test;

class EndedJobTolerantJobClientTest {
    private static final IllegalStateException CLUSTER_GONE =
            new IllegalStateException("MiniCluster is not yet running or has already been shut down.");

    @Test
    void cancellingAFailedJobWhoseClusterIsGoneSucceeds() {
        LocalJob job = new LocalJob();
        job.result.completeExceptionally(new RuntimeException("For input string: 'abc'"));
        job.cancel = () -> {
            throw CLUSTER_GONE;
        };

        assertThat(new EndedJobTolerantJobClient(job).cancel().join()).isNull();
    }

    @Test
    void cancellingAJobThatEndsMeanwhileSucceeds() {
        LocalJob job = new LocalJob();
        job.cancel = () -> {
            job.result.complete(new JobExecutionResult(job.id, 1, Map.of()));
            throw CLUSTER_GONE;
        };

        assertThat(new EndedJobTolerantJobClient(job).cancel().join()).isNull();
    }

    @Test
    void aRunningJobIsCancelledAndAFailureToCancelItIsReported() {
        LocalJob job = new LocalJob();
        job.cancel = () -> {
            job.cancelCalls++;
            return CompletableFuture.completedFuture(null);
        };
        assertThat(new EndedJobTolerantJobClient(job).cancel().join()).isNull();
        assertThat(job.cancelCalls).isEqualTo(1);

        job.cancel = () -> CompletableFuture.failedFuture(new RuntimeException("rpc timeout"));
        assertThatThrownBy(() -> new EndedJobTolerantJobClient(job).cancel().join())
                .isInstanceOf(CompletionException.class).hasRootCauseMessage("rpc timeout");

        job.cancel = () -> {
            throw CLUSTER_GONE;
        };
        assertThatThrownBy(() -> new EndedJobTolerantJobClient(job).cancel()).isSameAs(CLUSTER_GONE);
    }

    @Test
    void passesResultFetchingThrough() {
        LocalJob job = new LocalJob();
        EndedJobTolerantJobClient client = new EndedJobTolerantJobClient(job);
        var operator = CoordinationTargets.newOperator();
        CoordinationRequest request = new CoordinationRequest() {};
        CoordinationResponse response = client.sendCoordinationRequest(operator, request).join();
        assertThat(response).isSameAs(job.response);
        assertThat(job.requested).containsExactly(operator, request);
        assertThat(client.getJobID()).isEqualTo(job.id);
    }

    /** Stands in for the client of a job on a per-job MiniCluster. */
    private static final class LocalJob extends CoordinationForwarder implements JobClient {
        final JobID id = new JobID();
        final CompletableFuture<JobExecutionResult> result = new CompletableFuture<>();
        final CoordinationResponse response = new CoordinationResponse() {};
        /** The operator and request of the last coordination request. */
        Object[] requested;
        Supplier<CompletableFuture<Void>> cancel;
        int cancelCalls;

        @Override
        public JobID getJobID() {
            return id;
        }

        @Override
        public CompletableFuture<JobStatus> getJobStatus() {
            return CompletableFuture.completedFuture(JobStatus.RUNNING);
        }

        @Override
        public CompletableFuture<Void> cancel() {
            return cancel.get();
        }

        @Override
        public CompletableFuture<String> stopWithSavepoint(boolean advanceToEndOfEventTime, String directory,
                                                           SavepointFormatType formatType) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<String> triggerSavepoint(String directory, SavepointFormatType formatType) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Map<String, Object>> getAccumulators() {
            return CompletableFuture.completedFuture(Map.of());
        }

        @Override
        public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
            return result.thenApply(r -> r);
        }

        @Override
        protected CoordinationRequestGateway coordination() {
            return (operator, request) -> {
                requested = new Object[] {operator, request};
                return CompletableFuture.completedFuture(response);
            };
        }
    }
}
