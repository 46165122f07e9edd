package dev.streamhouse.flink.cdc.event;

import dev.streamhouse.flink.common.SerializerTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Flink type information for {@link CdcEvent}s: they travel through {@link CdcEventSerializer} (never Kryo).
 */
public final class CdcEventTypeInfo {
    public static final TypeInformation<CdcEvent> INSTANCE = SerializerTypeInfo.of(CdcEvent.class,
            () -> CdcEventSerializer.INSTANCE);

    private CdcEventTypeInfo() {}
}
