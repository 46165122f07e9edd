package dev.streamhouse.storage.data;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** A map backed by a Java map of internal values, iterated in insertion order. */
public final class GenericMap implements InternalMap {
    private final Map<Object, Object> map;

    public GenericMap(Map<?, ?> map) {
        this.map = new LinkedHashMap<>(map);
    }

    public Map<Object, Object> toJavaMap() {
        return map;
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public InternalArray keyArray() {
        return new GenericArray(map.keySet().toArray());
    }

    @Override
    public InternalArray valueArray() {
        return new GenericArray(map.values().toArray());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GenericMap && Objects.equals(map, ((GenericMap) o).map);
    }

    @Override
    public int hashCode() {
        return map.hashCode();
    }

    @Override
    public String toString() {
        return map.toString();
    }
}
