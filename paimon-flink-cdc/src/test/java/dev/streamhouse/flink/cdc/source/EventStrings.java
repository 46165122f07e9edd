package dev.streamhouse.flink.cdc.source;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchemaChange;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.Collector;

/** Test deserializer: each event as one readable line, e.g. {@code +I shop.t [1, a]}. */
public final class EventStrings implements CdcDeserializer<String> {
    private static final long serialVersionUID = 1L;

    private final boolean withSchemaChanges;

    public EventStrings(boolean withSchemaChanges) {
        this.withSchemaChanges = withSchemaChanges;
    }

    @Override
    public void deserialize(CdcEvent event, Collector<String> out) {
        if (event instanceof CdcRecord r) {
            switch (r.op()) {
                case INSERT -> out.collect("+I " + r.table() + " " + row(r.after()));
                case UPDATE -> out.collect("U " + r.table() + " " + row(r.before()) + " -> " + row(r.after()));
                case DELETE -> out.collect("-D " + r.table() + " " + row(r.before()));
            }
        } else if (withSchemaChanges && event instanceof CdcSchemaChange c) {
            out.collect("schema " + c.table() + " v" + c.schema().version() + " " + c.schema().columns()
                    + " pk " + c.schema().primaryKeys());
        }
    }

    static String row(Object[] values) {
        return Arrays.stream(values).map(EventStrings::value).collect(Collectors.joining(", ", "[", "]"));
    }

    private static String value(Object v) {
        if (v instanceof byte[] b) {
            StringBuilder s = new StringBuilder("0x");
            for (byte x : b) {
                s.append(String.format("%02x", x));
            }
            return s.toString();
        }
        return String.valueOf(v);
    }

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }
}
