package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.InvalidOptionsException;
import dev.streamhouse.storage.options.MergeEngineOptions;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code nested_update} of an ARRAY&lt;ROW&gt; column: a nested table. NULL rows are dropped whenever an
 * accumulator is rebuilt.
 *
 * <ul>
 *   <li>Without {@code fields.<column>.nested-key}: the input's rows are appended; a retraction removes
 *       every row equal to a retracted row ({@link FieldwiseEquality}: NaN fields never match).
 *   <li>With nested-key columns: rows are upserted by their key (a later row replaces the earlier one)
 *       and a retraction deletes the retracted rows' keys; the result is in Apache Paimon 1.3.1's hash
 *       order of the keys, which are binary rows ({@link BinaryRow#hashCode()}).
 *   <li>{@code fields.<column>.count-limit} (default unlimited) caps what merging adds: an accumulator
 *       with at least that many elements (NULLs counted) stays as it is, otherwise at most
 *       {@code limit - size} non-null input rows are taken, before any upsert by key.
 * </ul>
 */
final class NestedUpdateAggregator implements FieldAggregator {
    private final RowType rowType;
    private final int countLimit;
    private final BinaryRowConverter keys;

    private NestedUpdateAggregator(RowType rowType, int countLimit, BinaryRowConverter keys) {
        this.rowType = rowType;
        this.countLimit = countLimit;
        this.keys = keys;
    }

    static FieldAggregator create(ColumnFunction function) {
        DataType type = function.type();
        if (type.root() != DataTypeRoot.ARRAY || ((ArrayType) type).elementType().root() != DataTypeRoot.ROW) {
            throw function.typeRefused("ARRAY<ROW<...>>");
        }
        RowType rowType = (RowType) ((ArrayType) type).elementType();
        int countLimit = function.option(MergeEngineOptions.FIELD_COUNT_LIMIT, Integer.class);
        String keyOption = function.option(MergeEngineOptions.FIELD_NESTED_KEY, String.class);
        return new NestedUpdateAggregator(rowType, countLimit,
                keyOption == null ? null : keyConverter(function, rowType, keyOption));
    }

    private static BinaryRowConverter keyConverter(ColumnFunction function, RowType rowType, String keyOption) {
        String[] names = keyOption.split(",");
        int[] positions = new int[names.length];
        List<DataType> types = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            String name = names[i].trim();
            positions[i] = rowType.fieldIndex(name);
            if (positions[i] < 0) {
                throw new InvalidOptionsException(List.of("option '"
                        + MergeEngineOptions.FIELD_NESTED_KEY.keyFor(function.column()) + "' = '" + keyOption
                        + "' names '" + name + "', which is not a field of the nested rows; fields are "
                        + rowType.fieldNames()));
            }
            DataType keyType = rowType.typeAt(positions[i]);
            if (keyType.root().isNested()) {
                throw function.typeNotSupportedYet("a nested key '" + name + "' of type " + keyType.asSQLString());
            }
            types.add(keyType);
        }
        return new BinaryRowConverter(types, positions);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        InternalArray acc = (InternalArray) accumulator;
        if (acc.size() >= countLimit) {
            return accumulator;
        }
        List<InternalRow> rows = nonNullRows(acc, Integer.MAX_VALUE);
        rows.addAll(nonNullRows((InternalArray) input, countLimit - acc.size()));
        if (keys != null) {
            Map<BinaryRow, InternalRow> byKey = new HashMap<>();
            for (InternalRow row : rows) {
                byKey.put(keys.toBinaryRow(row), row);
            }
            rows = new ArrayList<>(byKey.values());
        }
        return new GenericArray(rows.toArray());
    }

    @Override
    public Object retract(Object accumulator, Object retracted) {
        if (accumulator == null || retracted == null) {
            return accumulator;
        }
        List<InternalRow> removed = nonNullRows((InternalArray) retracted, Integer.MAX_VALUE);
        if (keys == null) {
            List<InternalRow> rows = nonNullRows((InternalArray) accumulator, Integer.MAX_VALUE);
            for (InternalRow gone : removed) {
                rows.removeIf(row -> FieldwiseEquality.rowsEqual(gone, row, rowType));
            }
            return new GenericArray(rows.toArray());
        }
        Map<BinaryRow, InternalRow> byKey = new HashMap<>();
        for (InternalRow row : nonNullRows((InternalArray) accumulator, Integer.MAX_VALUE)) {
            byKey.put(keys.toBinaryRow(row), row);
        }
        for (InternalRow gone : removed) {
            byKey.remove(keys.toBinaryRow(gone));
        }
        return new GenericArray(byKey.values().toArray());
    }

    /** Up to {@code limit} non-null rows of {@code array}, in order. */
    private List<InternalRow> nonNullRows(InternalArray array, int limit) {
        List<InternalRow> rows = new ArrayList<>();
        for (int i = 0; i < array.size() && rows.size() < limit; i++) {
            if (!array.isNullAt(i)) {
                rows.add(array.rowAt(i, rowType.fieldCount()));
            }
        }
        return rows;
    }
}
