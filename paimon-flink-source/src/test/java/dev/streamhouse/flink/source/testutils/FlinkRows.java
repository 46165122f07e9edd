package dev.streamhouse.flink.source.testutils;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/** Shows flat Flink rows the way the storage tests show rows: {@code +I(1, name-1, d1)}. */
public final class FlinkRows {
    private FlinkRows() {}

    public static String show(RowData row, RowType type) {
        StringJoiner fields = new StringJoiner(", ", row.getRowKind().shortString() + "(", ")");
        for (int i = 0; i < type.getFieldCount(); i++) {
            Object v = RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row);
            fields.add(String.valueOf(v));
        }
        return fields.toString();
    }

    /** The rows shown and sorted. */
    public static List<String> show(List<RowData> rows, RowType type) {
        List<String> out = new ArrayList<>();
        for (RowData r : rows) {
            out.add(show(r, type));
        }
        out.sort(null);
        return out;
    }
}
