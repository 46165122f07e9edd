package dev.streamhouse.flink.source.compat;

import org.apache.flink.types.variant.Variant;

/**
 * The base of our Flink {@code RowData}/{@code ArrayData} views for what differs per Flink line.
 * Flink 2.1 added the VARIANT type and its getter; the Paimon 1.3 format has no VARIANT column, and a
 * VARIANT column is refused when a table is created, so no view of ours ever holds one.
 */
public abstract class VariantAccess {

    public Variant getVariant(int pos) {
        throw new UnsupportedOperationException("Field " + pos + " is not a VARIANT: the Paimon 1.3 table format"
                + " has no VARIANT type, so tables of this store hold none");
    }
}
