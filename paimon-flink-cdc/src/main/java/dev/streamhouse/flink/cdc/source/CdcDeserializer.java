package dev.streamhouse.flink.cdc.source;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import java.io.Serializable;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.util.Collector;

/**
 * Turns a source's {@link CdcEvent}s into what it emits: none, one or several elements per event
 * (a table source emits -U and +U for one update, and nothing for a schema change). Runs in the
 * source reader, in binlog order.
 */
public interface CdcDeserializer<T> extends Serializable, ResultTypeQueryable<T> {

    void deserialize(CdcEvent event, Collector<T> out) throws Exception;

    /** Emits the events themselves (serialized by {@link dev.streamhouse.flink.cdc.event.CdcEventSerializer}). */
    static CdcDeserializer<CdcEvent> events() {
        return new CdcDeserializer<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public void deserialize(CdcEvent event, Collector<CdcEvent> out) {
                out.collect(event);
            }

            @Override
            public TypeInformation<CdcEvent> getProducedType() {
                return dev.streamhouse.flink.cdc.event.CdcEventTypeInfo.INSTANCE;
            }
        };
    }
}
