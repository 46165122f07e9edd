package dev.streamhouse.storage.mergetree.aggregate;

import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;

/**
 * {@code hll_sketch}: the union of Apache DataSketches HLL sketches held in a VARBINARY column, with
 * Apache Paimon 1.3.1's parameters: the union is heapified from the input (so its lgMaxK is the input's
 * lgConfigK and the result has the smaller lgK of the two), updated with the accumulator, and written as
 * a compact HLL_4 sketch, whatever type the inputs were. Null never contributes; retraction is not
 * supported.
 */
final class HllSketchAggregator extends NonRetractingAggregator {
    private HllSketchAggregator(ColumnFunction function) {
        super(function);
    }

    static FieldAggregator create(ColumnFunction function) {
        BinaryFunctions.requireVarBinary(function);
        return new HllSketchAggregator(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        Union union = Union.heapify((byte[]) input);
        union.update(HllSketch.heapify((byte[]) accumulator));
        return union.getResult(TgtHllType.HLL_4).toCompactByteArray();
    }
}
