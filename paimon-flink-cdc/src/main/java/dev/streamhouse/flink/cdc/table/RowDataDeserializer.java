package dev.streamhouse.flink.cdc.table;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.source.CdcDeserializer;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

/**
 * A Flink SQL table's rows from change records: declared columns are taken by name from the
 * record's schema; an insert is +I, an update -U and +U, a delete -D. Schema changes emit nothing;
 * a declared column a changed table no longer has fails the job naming it.
 */
final class RowDataDeserializer implements CdcDeserializer<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final List<String> names;
    private final FlinkValueConverter[] converters;
    private transient Map<CdcSchema, int[]> positions;

    RowDataDeserializer(RowType rowType) {
        this.rowType = rowType;
        this.names = rowType.getFieldNames();
        this.converters = new FlinkValueConverter[names.size()];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = new FlinkValueConverter(rowType.getTypeAt(i), names.get(i));
        }
    }

    @Override
    public void deserialize(CdcEvent event, Collector<RowData> out) {
        if (!(event instanceof CdcRecord record)) {
            return;
        }
        int[] index = positionsOf(record.schema());
        String table = record.table().toString();
        switch (record.op()) {
            case INSERT -> out.collect(row(RowKind.INSERT, record.after(), index, table));
            case UPDATE -> {
                out.collect(row(RowKind.UPDATE_BEFORE, record.before(), index, table));
                out.collect(row(RowKind.UPDATE_AFTER, record.after(), index, table));
            }
            case DELETE -> out.collect(row(RowKind.DELETE, record.before(), index, table));
        }
    }

    private GenericRowData row(RowKind kind, Object[] values, int[] index, String table) {
        GenericRowData row = new GenericRowData(kind, index.length);
        for (int i = 0; i < index.length; i++) {
            row.setField(i, converters[i].convert(values[index[i]], table));
        }
        return row;
    }

    private int[] positionsOf(CdcSchema schema) {
        if (positions == null) {
            positions = new IdentityHashMap<>();
        }
        return positions.computeIfAbsent(schema, s -> {
            int[] index = new int[names.size()];
            for (int i = 0; i < index.length; i++) {
                index[i] = s.indexOf(names.get(i));
                if (index[i] < 0) {
                    throw new IllegalStateException("MySQL table " + s.table() + " has no column '" + names.get(i)
                            + "' any more (its columns are now " + s.columnNames() + ")");
                }
            }
            return index;
        });
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(rowType);
    }
}
