package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.MapType;

import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Assembles a MAP, or a MULTISET (element → count), as a {@link GenericMap} from a Parquet MAP group.
 */
final class MapConverter extends GroupConverter {
    private final ArrayList<Object> keys = new ArrayList<>();
    private final ArrayList<Object> values = new ArrayList<>();
    private final KeyValueConverter keyValue;
    private final ValueSink sink;

    private MapConverter(DataType keyType, DataType valueType, GroupType map, ValueSink sink) {
        this.sink = sink;
        this.keyValue = new KeyValueConverter(keyType, valueType, map.getType(0).asGroupType());
    }

    static MapConverter map(MapType type, GroupType map, ValueSink sink) {
        return new MapConverter(type.keyType(), type.valueType(), map, sink);
    }

    static MapConverter multiset(DataType elementType, GroupType map, ValueSink sink) {
        return new MapConverter(elementType, ParquetSchemaConverter.MULTISET_COUNT_TYPE, map, sink);
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return keyValue;
    }

    @Override
    public void start() {
        keys.clear();
        values.clear();
    }

    @Override
    public void end() {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            map.put(keys.get(i), values.get(i));
        }
        sink.set(new GenericMap(map));
    }

    /** The repeated {@code key_value} group: one entry each. */
    private final class KeyValueConverter extends GroupConverter {
        private final Converter key;
        private final Converter value;
        private Object currentKey;
        private Object currentValue;

        KeyValueConverter(DataType keyType, DataType valueType, GroupType keyValue) {
            this.key = ParquetConverters.create(keyType, keyValue.getType(0), v -> currentKey = v);
            this.value = ParquetConverters.create(valueType, keyValue.getType(1), v -> currentValue = v);
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return fieldIndex == 0 ? key : value;
        }

        @Override
        public void start() {
            currentKey = null;
            currentValue = null;
        }

        @Override
        public void end() {
            keys.add(currentKey);
            values.add(currentValue);
        }
    }
}
