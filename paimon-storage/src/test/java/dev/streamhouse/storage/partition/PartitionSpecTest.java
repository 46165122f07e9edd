package dev.streamhouse.storage.partition;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionSpecTest {
    private static final String DEFAULT = "__DEFAULT_PARTITION__";
    private static final RowType TYPE = RowType.of(DataTypes.STRING(), DataTypes.INT(), DataTypes.DATE());

    private static BinaryRow partition(Object... values) {
        return new BinaryRowConverter(TYPE.fieldTypes()).toBinaryRow(values);
    }

    private static Map<String, String> spec(String... kv) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            out.put(kv[i], kv[i + 1]);
        }
        return out;
    }

    @Test
    void fullPartialAndEmptySpecsMatchByValue() {
        int day = (int) LocalDate.of(2024, 1, 2).toEpochDay();
        BinaryRow p = partition(BinaryString.fromString("a"), 7, day);
        assertThat(PartitionSpec.parse(TYPE, spec("f0", "a", "f1", "7", "f2", "2024-01-02"), DEFAULT, "t").matches(p))
                .isTrue();
        assertThat(PartitionSpec.parse(TYPE, spec("f2", Integer.toString(day)), DEFAULT, "t").matches(p)).isTrue();
        assertThat(PartitionSpec.parse(TYPE, spec("f0", "a"), DEFAULT, "t").matches(p)).isTrue();
        assertThat(PartitionSpec.parse(TYPE, spec("f1", "8"), DEFAULT, "t").matches(p)).isFalse();
        PartitionSpec all = PartitionSpec.parse(TYPE, Map.of(), DEFAULT, "t");
        assertThat(all.isEmpty()).isTrue();
        assertThat(all.matches(p)).isTrue();
        assertThat(all.predicate()).isEmpty();
        assertThat(PartitionSpec.parse(TYPE, spec("f0", "a", "f1", "7"), DEFAULT, "t").toString()).isEqualTo("f0=a/f1=7");
    }

    @Test
    void theDefaultPartitionNameStandsForNull() {
        BinaryRow nulls = partition(null, null, null);
        BinaryRow empty = partition(BinaryString.fromString(""), 1, 1);
        PartitionSpec spec = PartitionSpec.parse(TYPE, spec("f0", DEFAULT, "f1", DEFAULT), DEFAULT, "t");
        assertThat(spec.matches(nulls)).isTrue();
        assertThat(spec.matches(empty)).isFalse();
        assertThat(PartitionSpec.parse(TYPE, spec("f0", ""), DEFAULT, "t").matches(empty)).isTrue();
    }

    @Test
    void invalidSpecsNameTheKeyAndValue() {
        assertThatThrownBy(() -> PartitionSpec.parse(TYPE, spec("zz", "1"), DEFAULT, "db.t"))
                .hasMessage("Cannot use partition spec {zz=1} for table db.t: 'zz' is not a partition key; partition "
                        + "keys are [f0, f1, f2]");
        assertThatThrownBy(() -> PartitionSpec.parse(TYPE, spec("f2", "yesterday"), DEFAULT, "db.t"))
                .hasMessage("Cannot use partition spec {f2=yesterday} for table db.t: value 'yesterday' of partition "
                        + "key 'f2' is not a valid DATE (expected a date like 2024-01-31 or a day number)");
        assertThatThrownBy(() -> PartitionSpec.parse(TYPE, spec("f1", "99999999999"), DEFAULT, "db.t"))
                .hasMessageContaining("value '99999999999' of partition key 'f1' is not a valid INT");
    }

    @Test
    void valuesAreConvertedWithTheColumnType() {
        assertThat(PartitionValues.fromString("TRUE", DataTypes.BOOLEAN())).isEqualTo(true);
        assertThat(PartitionValues.fromString("-3", DataTypes.TINYINT())).isEqualTo((byte) -3);
        assertThat(PartitionValues.fromString("12", DataTypes.BIGINT())).isEqualTo(12L);
        assertThat(PartitionValues.fromString("1.5", DataTypes.DOUBLE())).isEqualTo(1.5d);
        assertThat(PartitionValues.fromString("1.25", DataTypes.DECIMAL(5, 2)))
                .isEqualTo(Decimal.fromBigDecimal(new BigDecimal("1.25"), 5, 2));
        assertThatThrownBy(() -> PartitionValues.fromString("12345", DataTypes.DECIMAL(5, 2)))
                .hasMessageContaining("does not fit DECIMAL(5, 2)");
        assertThat(PartitionValues.fromString("12:30:01", DataTypes.TIME())).isEqualTo(45_001_000);
        DataType ts = DataTypes.TIMESTAMP(3);
        Timestamp expected = Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_000_000));
        assertThat(PartitionValues.fromString("2024-01-02 03:04:05.678", ts)).isEqualTo(expected);
        assertThat(PartitionValues.fromString("2024-01-02T03:04:05.678", ts)).isEqualTo(expected);
        assertThat(PartitionValues.fromString("2024-01-02", ts))
                .isEqualTo(Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 1, 2, 0, 0)));
        assertThat(PartitionValues.fromString(" padded ", DataTypes.STRING())).isEqualTo(BinaryString.fromString(" padded "));
        assertThatThrownBy(() -> PartitionValues.fromString("x", DataTypes.BYTES()))
                .hasMessageContaining("cannot be a partition key");
    }
}
