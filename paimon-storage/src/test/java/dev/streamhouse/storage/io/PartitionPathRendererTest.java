package dev.streamhouse.storage.io;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The verified examples of docs/format.md §1.3. */
class PartitionPathRendererTest {
    private static final RowType TYPE = new RowType(List.of(
            new DataField(0, "p_int", DataTypes.INT()),
            new DataField(1, "p_date", DataTypes.DATE()),
            new DataField(2, "p_str", DataTypes.STRING())));

    private static BinaryRow row(RowType type, Object... values) {
        return new BinaryRowConverter(type.fieldTypes()).toBinaryRow(values);
    }

    private static int day(int y, int m, int d) {
        return (int) LocalDate.of(y, m, d).toEpochDay();
    }

    @Test
    void legacyNamesRenderDatesAsDayNumbersAndEscape() {
        PartitionPathRenderer r = new PartitionPathRenderer(TYPE, "__DEFAULT_PARTITION__", true);
        assertThat(r.render(row(TYPE, 1, day(2024, 1, 2), BinaryString.fromString("a/b=c d%"))))
                .isEqualTo("p_int=1/p_date=19724/p_str=a%2Fb%3Dc d%25/");
        assertThat(r.render(row(TYPE, 2, 0, BinaryString.fromString(""))))
                .isEqualTo("p_int=2/p_date=0/p_str=__DEFAULT_PARTITION__/");
        assertThat(r.render(row(TYPE, null, null, null)))
                .isEqualTo("p_int=__DEFAULT_PARTITION__/p_date=__DEFAULT_PARTITION__/p_str=__DEFAULT_PARTITION__/");
    }

    @Test
    void blankStringsUseTheDefaultName() {
        PartitionPathRenderer r = new PartitionPathRenderer(TYPE, "dflt", true);
        assertThat(r.render(row(TYPE, 1, 1, BinaryString.fromString("  \t")))).isEqualTo("p_int=1/p_date=1/p_str=dflt/");
    }

    @Test
    void nonLegacyNamesUseSqlStrings() {
        RowType type = new RowType(List.of(
                new DataField(0, "p_date", DataTypes.DATE()),
                new DataField(1, "p_ts", DataTypes.TIMESTAMP(3))));
        PartitionPathRenderer r = new PartitionPathRenderer(type, "__DEFAULT_PARTITION__", false);
        BinaryRow p = row(type, day(2024, 1, 2),
                Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_000_000)));
        assertThat(r.render(p)).isEqualTo("p_date=2024-01-02/p_ts=2024-01-02 03%3A04%3A05.678/");
    }

    @Test
    void legacyTimestampUsesIsoForm() {
        RowType type = new RowType(List.of(new DataField(0, "ts", DataTypes.TIMESTAMP(3))));
        PartitionPathRenderer r = new PartitionPathRenderer(type, "__DEFAULT_PARTITION__", true);
        assertThat(r.render(row(type, Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 1, 2, 3, 4)))))
                .isEqualTo("ts=2024-01-02T03%3A04/");
    }

    @Test
    void escapesEverySpecialCharacterAndNothingElse() {
        assertThat(PartitionPathRenderer.escape("\"#%'*/:=?\\\u007f{}[]^\u0001"))
                .isEqualTo("%22%23%25%27%2A%2F%3A%3D%3F%5C%7F%7B%7D%5B%5D%5E%01");
        assertThat(PartitionPathRenderer.escape("a b-é_ü.~!@$&()+,;<>|`")).isEqualTo("a b-é_ü.~!@$&()+,;<>|`");
    }

    @Test
    void refusesBinaryPartitionKeys() {
        RowType type = new RowType(List.of(new DataField(0, "b", DataTypes.BYTES())));
        assertThatThrownBy(() -> new PartitionPathRenderer(type, "x", true))
                .hasMessageContaining("'b'").hasMessageContaining("partition key");
    }
}
