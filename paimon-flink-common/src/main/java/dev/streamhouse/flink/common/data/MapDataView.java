package dev.streamhouse.flink.common.data;

import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import org.apache.flink.table.data.MapData;

/**
 * A storage {@link InternalMap} view over a Flink {@link MapData}: a MAP, or a MULTISET (element to
 * INT count) — both models store a multiset that way.
 */
public final class MapDataView implements InternalMap {
    private final MapData map;

    public MapDataView(MapData map) {
        this.map = map;
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public InternalArray keyArray() {
        return new ArrayDataView(map.keyArray());
    }

    @Override
    public InternalArray valueArray() {
        return new ArrayDataView(map.valueArray());
    }
}
