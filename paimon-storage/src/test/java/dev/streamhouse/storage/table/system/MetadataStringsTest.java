package dev.streamhouse.storage.table.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Text forms as Apache Paimon 1.3.1 shows them; the expected strings were read from its
 * {@code $partitions} and {@code $files} tables over tables with these values.
 */
class MetadataStringsTest {

    private static RowType rowOf(DataType... types) {
        List<DataField> fields = new ArrayList<>();
        for (DataType t : types) {
            fields.add(new DataField(fields.size(), "f" + fields.size(), t));
        }
        return new RowType(fields);
    }

    @Test
    void partitionValuesAreCastToSqlStrings() {
        RowType type = rowOf(DataTypes.TIME(0), DataTypes.TIME(3), DataTypes.TIMESTAMP(0), DataTypes.TIMESTAMP(3),
                DataTypes.DECIMAL(5, 2), DataTypes.FLOAT(), DataTypes.BOOLEAN(), DataTypes.TINYINT(), DataTypes.CHAR(3),
                DataTypes.DATE(), DataTypes.STRING(), DataTypes.STRING());
        GenericRow partition = GenericRow.of(3_723_000, 3_723_456, Timestamp.fromEpochMillis(1_700_000_000_000L),
                Timestamp.fromEpochMillis(1_700_000_000_120L), Decimal.fromBigDecimal(new BigDecimal("1.20"), 5, 2),
                2.5f, true, (byte) 7, BinaryString.fromString("ab"), 19723, null, BinaryString.fromString(""));
        assertThat(MetadataStrings.partition(partition, type)).isEqualTo(
                "{01:02:03, 01:02:03.456, 2023-11-14 22:13:20, 2023-11-14 22:13:20.120, 1.20, 2.5, true, 7, ab, "
                        + "2024-01-01, null, }");
    }

    @Test
    void localZonedTimestampsUseTheJvmTimeZone() {
        Instant instant = Instant.ofEpochMilli(1_700_000_000_120L);
        String local = LocalDateTime.ofInstant(instant, ZoneId.systemDefault()).toString().replace('T', ' ');
        assertThat(MetadataStrings.partition(GenericRow.of(Timestamp.fromInstant(instant)),
                rowOf(DataTypes.TIMESTAMP_LTZ(3)))).isEqualTo("{" + local + "}");
    }

    @Test
    void unpartitionedIsEmptyBraces() {
        assertThat(MetadataStrings.partition(GenericRow.of(), rowOf())).isEqualTo("{}");
    }

    @Test
    void keysAndStatisticsShowInternalValues() {
        RowType type = rowOf(DataTypes.INT(), DataTypes.STRING(), DataTypes.DATE(), DataTypes.TIMESTAMP(6),
                DataTypes.DECIMAL(10, 2), DataTypes.TIME(3));
        GenericRow key = GenericRow.of(1, BinaryString.fromString("a"), 19723,
                Timestamp.fromEpochMillis(1_700_000_000_123L, 456_000), Decimal.fromBigDecimal(new BigDecimal("1.5"), 10, 2),
                3_600_000);
        assertThat(MetadataStrings.key(key, type))
                .isEqualTo("[1, a, 19723, 2023-11-14T22:13:20.123456, 1.50, 3600000]");
        assertThat(MetadataStrings.internalString(Timestamp.fromEpochMillis(1_700_000_000_000L)))
                .isEqualTo("2023-11-14T22:13:20");
        assertThat(MetadataStrings.internalString(null)).isNull();
    }
}
