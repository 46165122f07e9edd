package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RowBytesTest {
    private static final RowType TYPE = DataTypes.ROW(
            DataTypes.FIELD(0, "i", DataTypes.INT()),
            DataTypes.FIELD(1, "s", DataTypes.STRING()),
            DataTypes.FIELD(2, "d", DataTypes.DECIMAL(20, 3)),
            DataTypes.FIELD(3, "t", DataTypes.TIMESTAMP(6)),
            DataTypes.FIELD(4, "a", DataTypes.ARRAY(DataTypes.BIGINT())),
            DataTypes.FIELD(5, "b", DataTypes.BYTES()));

    @Test
    void rowsAndTheirKindsComeBackAsTheyWent() {
        RowBytes bytes = new RowBytes(TYPE);
        GenericRow row = GenericRow.of(7, BinaryString.fromString("héllo"),
                Decimal.fromBigDecimal(new BigDecimal("12345678901234567.891"), 20, 3),
                Timestamp.fromEpochMillis(1_700_000_000_123L, 456_000), new GenericArray(new Object[] {1L, null, 3L}),
                new byte[] {1, 2, 3});
        row.setRowKind(RowKind.UPDATE_BEFORE);
        GenericRow nulls = new GenericRow(6);
        nulls.setRowKind(RowKind.DELETE);
        nulls.setField(0, 1);

        byte[] first = bytes.toBytes(row);
        byte[] second = bytes.toBytes(nulls);
        GenericRow back = bytes.fromBytes(first);
        assertThat(back.rowKind()).isEqualTo(RowKind.UPDATE_BEFORE);
        assertThat(back.toString()).isEqualTo(row.toString());
        assertThat(bytes.fromBytes(second).toString()).isEqualTo(nulls.toString());
        assertThat(bytes.fromBytes(second).rowKind()).isEqualTo(RowKind.DELETE);
    }

    @Test
    void bytesOfAnotherShapeAreRefusedNamingTheType() {
        RowBytes bytes = new RowBytes(TYPE);
        byte[] good = bytes.toBytes(GenericRow.of(1, null, null, null, null, null));
        byte[] longer = java.util.Arrays.copyOf(good, good.length + 2);
        assertThatThrownBy(() -> bytes.fromBytes(longer)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bytes left over").hasMessageContaining("ROW<");
    }
}
