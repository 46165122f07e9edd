package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.MapType;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code merge_map} of a MAP column: the union of the inputs' entries, a later value replacing an
 * earlier one of the same key (null values included). A retraction removes the retracted map's keys,
 * whatever their values. Merged and retracted maps are written in Apache Paimon 1.3.1's hash order of
 * the keys ({@link PaimonHashKey}); a map that is passed through keeps its order.
 *
 * <p>As in Paimon, binary keys are never equal to each other (they are Java arrays there), so maps with
 * BINARY or VARBINARY keys only grow: merging keeps every entry, retracting removes none. Keys of nested
 * types (and VARIANT) have no Paimon hash order this store can reproduce and are refused.
 */
final class MergeMapAggregator implements FieldAggregator {
    private final DataType keyType;
    private final DataType valueType;

    private MergeMapAggregator(DataType keyType, DataType valueType) {
        this.keyType = keyType;
        this.valueType = valueType;
    }

    static FieldAggregator create(ColumnFunction function) {
        if (function.type().root() != DataTypeRoot.MAP) {
            throw function.typeRefused("MAP");
        }
        MapType type = (MapType) function.type();
        if (type.keyType().root().isNested()) {
            throw function.typeNotSupportedYet("merging maps whose keys are of type " + type.keyType().asSQLString());
        }
        return new MergeMapAggregator(type.keyType(), type.valueType());
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        Map<PaimonHashKey, Object> merged = new HashMap<>();
        putAll(merged, (InternalMap) accumulator);
        putAll(merged, (InternalMap) input);
        return toGenericMap(merged);
    }

    @Override
    public Object retract(Object accumulator, Object retracted) {
        if (accumulator == null) {
            return null;
        }
        if (retracted == null || ((InternalMap) retracted).size() == 0) {
            return accumulator;
        }
        InternalArray retractedKeys = ((InternalMap) retracted).keyArray();
        Set<PaimonHashKey> removed = new HashSet<>();
        for (int i = 0; i < retractedKeys.size(); i++) {
            removed.add(PaimonHashKey.of(InternalRowUtils.arrayElement(retractedKeys, i, keyType), keyType));
        }
        InternalMap acc = (InternalMap) accumulator;
        InternalArray keys = acc.keyArray();
        InternalArray values = acc.valueArray();
        Map<PaimonHashKey, Object> kept = new HashMap<>();
        for (int i = 0; i < acc.size(); i++) {
            PaimonHashKey key = PaimonHashKey.of(InternalRowUtils.arrayElement(keys, i, keyType), keyType);
            if (!removed.contains(key)) {
                kept.put(key, InternalRowUtils.arrayElement(values, i, valueType));
            }
        }
        return toGenericMap(kept);
    }

    private void putAll(Map<PaimonHashKey, Object> target, InternalMap map) {
        InternalArray keys = map.keyArray();
        InternalArray values = map.valueArray();
        for (int i = 0; i < map.size(); i++) {
            target.put(PaimonHashKey.of(InternalRowUtils.arrayElement(keys, i, keyType), keyType),
                    InternalRowUtils.arrayElement(values, i, valueType));
        }
    }

    /** A map in the iteration order of {@code hashed} (GenericMap keeps the order it is given). */
    private static GenericMap toGenericMap(Map<PaimonHashKey, Object> hashed) {
        Map<Object, Object> ordered = new LinkedHashMap<>();
        hashed.forEach((k, v) -> ordered.put(k.value(), v));
        return new GenericMap(ordered);
    }
}
