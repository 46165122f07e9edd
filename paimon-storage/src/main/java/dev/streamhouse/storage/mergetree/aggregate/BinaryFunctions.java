package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.types.DataTypeRoot;

/** The type rule of the functions over serialized structures (bitmaps and sketches). */
final class BinaryFunctions {
    private BinaryFunctions() {}

    /**
     * Refuses every type but VARBINARY (and BYTES), as Apache Paimon 1.3.1 does: a fixed-length
     * BINARY(n) column is refused too.
     */
    static void requireVarBinary(ColumnFunction function) {
        if (function.type().root() != DataTypeRoot.VARBINARY) {
            throw function.typeRefused("VARBINARY and BYTES");
        }
    }
}
