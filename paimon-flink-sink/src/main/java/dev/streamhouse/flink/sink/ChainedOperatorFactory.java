package dev.streamhouse.flink.sink;

import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;

/**
 * The factory our sink operators are added to a job with, carrying their chaining strategy. Flink 1.x
 * kept the strategy on the operator (default {@code HEAD}); Flink 2 keeps it on the factory only
 * (default {@code ALWAYS}). Naming it here gives every operator the same chaining on both lines.
 */
public final class ChainedOperatorFactory<IN, OUT> extends SimpleOperatorFactory<OUT>
        implements OneInputStreamOperatorFactory<IN, OUT> {
    private static final long serialVersionUID = 1L;

    private ChainedOperatorFactory(OneInputStreamOperator<IN, OUT> operator, ChainingStrategy strategy) {
        super(operator);
        setChainingStrategy(strategy);
    }

    /** {@code operator}, chained to its predecessor whenever Flink can (forward edge, same parallelism). */
    public static <IN, OUT> ChainedOperatorFactory<IN, OUT> always(OneInputStreamOperator<IN, OUT> operator) {
        return new ChainedOperatorFactory<>(operator, ChainingStrategy.ALWAYS);
    }

    /** {@code operator}, never chained to its predecessor (its successors may chain to it). */
    public static <IN, OUT> ChainedOperatorFactory<IN, OUT> head(OneInputStreamOperator<IN, OUT> operator) {
        return new ChainedOperatorFactory<>(operator, ChainingStrategy.HEAD);
    }
}
