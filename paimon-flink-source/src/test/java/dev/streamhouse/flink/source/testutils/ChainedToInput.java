package dev.streamhouse.flink.source.testutils;

import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;

/**
 * A test operator's factory that chains it to its input ({@code ALWAYS}). Flink 1.x kept the chaining
 * strategy on the operator, Flink 2 keeps it only on the factory; this works on both.
 */
public final class ChainedToInput<IN, OUT> extends SimpleOperatorFactory<OUT>
        implements OneInputStreamOperatorFactory<IN, OUT> {
    private static final long serialVersionUID = 1L;

    private ChainedToInput(OneInputStreamOperator<IN, OUT> operator) {
        super(operator);
        setChainingStrategy(ChainingStrategy.ALWAYS);
    }

    public static <IN, OUT> ChainedToInput<IN, OUT> of(OneInputStreamOperator<IN, OUT> operator) {
        return new ChainedToInput<>(operator);
    }
}
