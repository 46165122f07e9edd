package dev.streamhouse.sqlrunner.compat;

import java.util.concurrent.CompletableFuture;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;

/** A {@link CoordinationRequestGateway} that passes requests on (Flink 2.x: operators named by their uid). */
public abstract class CoordinationForwarder implements CoordinationRequestGateway {
    /** Where requests go. */
    protected abstract CoordinationRequestGateway coordination();

    @Override
    public CompletableFuture<CoordinationResponse> sendCoordinationRequest(String operatorUid, CoordinationRequest request) {
        return coordination().sendCoordinationRequest(operatorUid, request);
    }
}
