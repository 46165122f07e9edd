package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.types.DataType;

import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

import java.util.ArrayList;

/** Assembles a {@link GenericArray} from a Parquet LIST group (three-level or legacy two-level). */
final class ListConverter extends GroupConverter {
    private final ArrayList<Object> buffer = new ArrayList<>();
    private final Converter repeated;
    private final ValueSink sink;

    ListConverter(DataType elementType, GroupType list, ValueSink sink) {
        this.sink = sink;
        Type repeatedType = list.getType(0);
        if (ParquetReadSchema.isThreeLevel(list, repeatedType)) {
            this.repeated = new ElementConverter(elementType, repeatedType.asGroupType().getType(0));
        } else {
            this.repeated = ParquetConverters.create(elementType, repeatedType, buffer::add);
        }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return repeated;
    }

    @Override
    public void start() {
        buffer.clear();
    }

    @Override
    public void end() {
        sink.set(new GenericArray(buffer.toArray()));
    }

    /** The repeated {@code list} group: one element each, absent element meaning NULL. */
    private final class ElementConverter extends GroupConverter {
        private final Converter element;
        private Object value;

        ElementConverter(DataType elementType, Type elementFileType) {
            this.element = ParquetConverters.create(elementType, elementFileType, v -> value = v);
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return element;
        }

        @Override
        public void start() {
            value = null;
        }

        @Override
        public void end() {
            buffer.add(value);
        }
    }
}
