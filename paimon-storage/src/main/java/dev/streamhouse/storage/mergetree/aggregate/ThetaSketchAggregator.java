package dev.streamhouse.storage.mergetree.aggregate;

import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Union;

/**
 * {@code theta_sketch}: the union of Apache DataSketches theta sketches held in a VARBINARY column,
 * with Apache Paimon 1.3.1's parameters: a union of the default nominal entries (4096, so inputs built
 * with more entries are reduced) and the default seed (9001), accumulator first, written as an ordered
 * compact sketch. Null never contributes; retraction is not supported.
 */
final class ThetaSketchAggregator extends NonRetractingAggregator {
    private ThetaSketchAggregator(ColumnFunction function) {
        super(function);
    }

    static FieldAggregator create(ColumnFunction function) {
        BinaryFunctions.requireVarBinary(function);
        return new ThetaSketchAggregator(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        Union union = SetOperation.builder().buildUnion();
        union.union(Memory.wrap((byte[]) accumulator));
        union.union(Memory.wrap((byte[]) input));
        return union.getResult().toByteArray();
    }
}
