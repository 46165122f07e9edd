package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.common.SerializerTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Flink type information for {@link TableRow}s: they travel through {@link TableRowSerializer} (never Kryo).
 */
public final class TableRowTypeInfo {
    public static final TypeInformation<TableRow> INSTANCE = SerializerTypeInfo.of(TableRow.class,
            () -> TableRowSerializer.INSTANCE);

    private TableRowTypeInfo() {}
}
