package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.ProjectedRow;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.reader.TransformingRecordReader;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The value columns a merge-on-read must fetch for a wanted projection, and how to cut the result back.
 * With {@code sequence.field}, versions are ordered by those columns, so they are read even when not
 * projected: the read projection is the wanted one plus the missing sequence fields appended at the
 * end, and {@link #cutBack} drops them again.
 */
public final class MergeReadProjection {
    private final int[] readProjection;
    private final int outputArity;
    private final VersionOrder versionOrder;

    private MergeReadProjection(int[] readProjection, int outputArity, VersionOrder versionOrder) {
        this.readProjection = readProjection;
        this.outputArity = outputArity;
        this.versionOrder = versionOrder;
    }

    /**
     * @param projection positions of the wanted columns in {@code schema.rowType()}
     * @throws IllegalArgumentException if {@code sequence.field} names a missing column or
     *     {@code sequence.field.sort-order} is neither ascending nor descending
     */
    public static MergeReadProjection of(TableSchema schema, int[] projection) {
        return of(schema, projection, projection.length);
    }

    /**
     * Like {@link #of(TableSchema, int[])} for the fields a merge engine
     * {@link dev.streamhouse.storage.mergetree.MergeFunctionFactory#readFields reads}: the first
     * {@code outputArity} of them are the wanted ones, which {@link #cutBack} keeps.
     */
    public static MergeReadProjection of(TableSchema schema, int[] projection, int outputArity) {
        RowType rowType = schema.rowType();
        Options options = schema.tableOptions();
        List<String> sequenceFields = sequenceFields(options);
        List<Integer> read = new ArrayList<>();
        for (int p : projection) {
            read.add(p);
        }
        int[] sequencePositions = new int[sequenceFields.size()];
        for (int i = 0; i < sequencePositions.length; i++) {
            int tablePos = rowType.fieldIndex(sequenceFields.get(i));
            if (tablePos < 0) {
                throw new IllegalArgumentException("Cannot read table with option '"
                        + MergeTreeOptions.SEQUENCE_FIELD.key() + "' = '" + options.get(MergeTreeOptions.SEQUENCE_FIELD)
                        + "': column '" + sequenceFields.get(i) + "' does not exist; fields are " + rowType.fieldNames());
            }
            int readPos = read.indexOf(tablePos);
            if (readPos < 0) {
                readPos = read.size();
                read.add(tablePos);
            }
            sequencePositions[i] = readPos;
        }
        int[] readProjection = read.stream().mapToInt(Integer::intValue).toArray();
        VersionOrder order = VersionOrder.bySequenceFields(rowType.project(readProjection), sequencePositions,
                sequenceAscending(options));
        return new MergeReadProjection(readProjection, outputArity, order);
    }

    /** The {@code sequence.field} columns, trimmed, in order; empty when unset. */
    public static List<String> sequenceFields(Options options) {
        String configured = options.get(MergeTreeOptions.SEQUENCE_FIELD);
        List<String> out = new ArrayList<>();
        if (configured != null) {
            for (String f : configured.split(",")) {
                if (!f.trim().isEmpty()) {
                    out.add(f.trim());
                }
            }
        }
        return out;
    }

    /** Whether {@code sequence.field.sort-order} is ascending (the largest sequence field wins). */
    public static boolean sequenceAscending(Options options) {
        String order = options.get(MergeTreeOptions.SEQUENCE_FIELD_SORT_ORDER).trim().toLowerCase(Locale.ROOT);
        switch (order) {
            case "ascending":
                return true;
            case "descending":
                return false;
            default:
                throw new IllegalArgumentException("Invalid value '" + order + "' for option '"
                        + MergeTreeOptions.SEQUENCE_FIELD_SORT_ORDER.key() + "': use ascending or descending");
        }
    }

    /** Positions in the table row of the value columns to read: the wanted ones first. */
    public int[] readProjection() {
        return readProjection.clone();
    }

    /** How versions of a key are ordered, over value rows of {@link #readProjection()}. */
    public VersionOrder versionOrder() {
        return versionOrder;
    }

    /** Whether columns beyond the wanted ones are read. */
    public boolean widened() {
        return readProjection.length != outputArity;
    }

    /**
     * Rows of the read projection cut back to the wanted columns: a view of each row, copying nothing
     * (one view per row, so rows stay as valid as the source's).
     */
    public RecordReader<InternalRow> cutBack(RecordReader<InternalRow> rows) {
        if (!widened()) {
            return rows;
        }
        int[] mapping = new int[outputArity];
        Arrays.setAll(mapping, i -> i);
        return new TransformingRecordReader<>(rows, null, row -> new ProjectedRow(mapping).replace(row));
    }
}
