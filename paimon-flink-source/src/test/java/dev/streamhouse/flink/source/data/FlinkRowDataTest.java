package dev.streamhouse.flink.source.data;

import dev.streamhouse.flink.common.FlinkRowKinds;
import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.flink.source.testutils.AllTypes;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.types.RowType;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlinkRowDataTest {
    private static final RowType TYPE = new RowType(AllTypes.schema().fields());
    private static final org.apache.flink.table.types.logical.RowType FLINK_TYPE = FlinkTypes.toFlinkRowType(TYPE);

    @SuppressWarnings("unchecked")
    private static Row toExternal(RowData row) {
        DataStructureConverter<Object, Object> converter =
                DataStructureConverters.getConverter(TypeConversions.fromLogicalToDataType(FLINK_TYPE));
        converter.open(FlinkRowDataTest.class.getClassLoader());
        return (Row) converter.toExternal(row);
    }

    @Test
    void viewReadsEveryTypeAsFlinkConvertsIt() {
        for (int i = 0; i < AllTypes.ROWS; i++) {
            assertThat(toExternal(new FlinkRowData(AllTypes.internalRow(i))))
                    .as("row %s", i)
                    .isEqualTo(AllTypes.externalRow(i));
        }
    }

    @Test
    void flinksRowSerializerTurnsTheViewIntoTheSameValues() throws Exception {
        RowDataSerializer serializer = new RowDataSerializer(FLINK_TYPE);
        for (int i = 0; i < AllTypes.ROWS; i++) {
            DataOutputSerializer out = new DataOutputSerializer(256);
            serializer.serialize(new FlinkRowData(AllTypes.internalRow(i)), out);
            RowData back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertThat(toExternal(back)).as("row %s", i).isEqualTo(AllTypes.externalRow(i));
            assertThat(toExternal(serializer.copy(new FlinkRowData(AllTypes.internalRow(i)))))
                    .as("copy of row %s", i)
                    .isEqualTo(AllTypes.externalRow(i));
        }
    }

    @Test
    void stringsWrapTheUtf8BytesOfTheRowWithoutCopying() {
        byte[] bytes = "xxhällo".getBytes(StandardCharsets.UTF_8);
        FlinkRowData view = new FlinkRowData(GenericRow.of(BinaryString.fromBytes(bytes, 2, bytes.length - 2)));
        StringData s = view.getString(0);
        assertThat(s.toString()).isEqualTo("hällo");
        assertThat(((BinaryStringData) s).getSegments()[0].getArray()).isSameAs(bytes);
    }

    @Test
    void decimalsKeepPrecisionAndScaleCompactOrNot() {
        FlinkRowData view = new FlinkRowData(GenericRow.of(
                Decimal.fromUnscaledLong(-12345, 18, 3),
                Decimal.fromBigDecimal(new BigDecimal("-0.00000000000000000000000000000000000001"), 38, 38)));
        DecimalData compact = view.getDecimal(0, 18, 3);
        assertThat(compact.isCompact()).isTrue();
        assertThat(compact.toUnscaledLong()).isEqualTo(-12345);
        assertThat(compact.toBigDecimal()).isEqualByComparingTo("-12.345");
        DecimalData big = view.getDecimal(1, 38, 38);
        assertThat(big.precision()).isEqualTo(38);
        assertThat(big.scale()).isEqualTo(38);
        assertThat(big.toBigDecimal()).isEqualTo(new BigDecimal("-0.00000000000000000000000000000000000001"));
    }

    @Test
    void rowKindStartsAsTheRowsAndChangesOnlyOnTheView() {
        GenericRow row = GenericRow.ofKind(RowKind.UPDATE_BEFORE, 1);
        FlinkRowData view = new FlinkRowData(row);
        assertThat(view.getRowKind()).isEqualTo(org.apache.flink.types.RowKind.UPDATE_BEFORE);
        view.setRowKind(org.apache.flink.types.RowKind.INSERT);
        assertThat(view.getRowKind()).isEqualTo(org.apache.flink.types.RowKind.INSERT);
        assertThat(row.rowKind()).isEqualTo(RowKind.UPDATE_BEFORE);

        view.replace(GenericRow.ofKind(RowKind.DELETE, 2));
        assertThat(view.getRowKind()).isEqualTo(org.apache.flink.types.RowKind.DELETE);
        assertThat(view.getInt(0)).isEqualTo(2);
        for (RowKind kind : RowKind.values()) {
            assertThat(FlinkRowKinds.toFlink(kind).toByteValue()).isEqualTo(kind.toByteValue());
            assertThat(FlinkRowKinds.toFlink(kind).shortString()).isEqualTo(kind.shortString());
        }
    }

    @Test
    void primitiveArrayCopiesRefuseNullElements() {
        ArrayData ints = new FlinkArrayData(new GenericArray(new Object[] {3, 1, 2}));
        assertThat(ints.toIntArray()).containsExactly(3, 1, 2);
        ArrayData withNull = new FlinkArrayData(new GenericArray(new Object[] {1L, null}));
        assertThatThrownBy(withNull::toLongArray).hasMessageContaining("NULL element (at position 1)");
        ArrayData doubles = new FlinkArrayData(new GenericArray(new Object[] {0.5d, -1d}));
        assertThat(doubles.toDoubleArray()).containsExactly(0.5d, -1d);
    }

    @Test
    void rawValuesAreRefused() {
        assertThatThrownBy(() -> new FlinkRowData(GenericRow.of(1)).getRawValue(0))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("no RAW type");
    }
}
