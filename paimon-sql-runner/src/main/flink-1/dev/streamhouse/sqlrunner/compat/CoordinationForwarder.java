package dev.streamhouse.sqlrunner.compat;

import java.util.concurrent.CompletableFuture;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;

/** A {@link CoordinationRequestGateway} that passes requests on (Flink 1.20: operators named by {@link OperatorID}). */
public abstract class CoordinationForwarder implements CoordinationRequestGateway {
    /** Where requests go. */
    protected abstract CoordinationRequestGateway coordination();

    @Override
    public CompletableFuture<CoordinationResponse> sendCoordinationRequest(OperatorID operator, CoordinationRequest request) {
        return coordination().sendCoordinationRequest(operator, request);
    }
}
