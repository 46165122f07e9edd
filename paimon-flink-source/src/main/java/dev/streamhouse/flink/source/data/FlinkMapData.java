package dev.streamhouse.flink.source.data;

import dev.streamhouse.storage.data.InternalMap;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;

/**
 * Presents one of our {@link InternalMap}s (a MAP, or a MULTISET as element → INT count) as Flink
 * {@link MapData} without copying it; valid as long as the wrapped map is.
 */
public final class FlinkMapData implements MapData {
    private final InternalMap map;

    public FlinkMapData(InternalMap map) {
        this.map = map;
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public ArrayData keyArray() {
        return new FlinkArrayData(map.keyArray());
    }

    @Override
    public ArrayData valueArray() {
        return new FlinkArrayData(map.valueArray());
    }
}
