package dev.streamhouse.storage.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Type spellings as schema files store them (docs/format.md §3.3), validation and equality. */
class DataTypesTest {

    @Test
    void atomicTypesAreSpelledAsInSchemaFiles() {
        assertThat(DataTypes.BOOLEAN().asSQLString()).isEqualTo("BOOLEAN");
        assertThat(DataTypes.TINYINT().asSQLString()).isEqualTo("TINYINT");
        assertThat(DataTypes.SMALLINT().asSQLString()).isEqualTo("SMALLINT");
        assertThat(DataTypes.INT().asSQLString()).isEqualTo("INT");
        assertThat(DataTypes.BIGINT().asSQLString()).isEqualTo("BIGINT");
        assertThat(DataTypes.FLOAT().asSQLString()).isEqualTo("FLOAT");
        assertThat(DataTypes.DOUBLE().asSQLString()).isEqualTo("DOUBLE");
        assertThat(DataTypes.DECIMAL(10, 2).asSQLString()).isEqualTo("DECIMAL(10, 2)");
        assertThat(DataTypes.DECIMAL(38, 10).asSQLString()).isEqualTo("DECIMAL(38, 10)");
        assertThat(DataTypes.CHAR(3).asSQLString()).isEqualTo("CHAR(3)");
        assertThat(DataTypes.VARCHAR(20).asSQLString()).isEqualTo("VARCHAR(20)");
        assertThat(DataTypes.STRING().asSQLString()).isEqualTo("STRING");
        assertThat(DataTypes.VARCHAR(Integer.MAX_VALUE).asSQLString()).isEqualTo("STRING");
        assertThat(DataTypes.BINARY(4).asSQLString()).isEqualTo("BINARY(4)");
        assertThat(DataTypes.VARBINARY(8).asSQLString()).isEqualTo("VARBINARY(8)");
        assertThat(DataTypes.BYTES().asSQLString()).isEqualTo("BYTES");
        assertThat(DataTypes.DATE().asSQLString()).isEqualTo("DATE");
        assertThat(DataTypes.TIME().asSQLString()).isEqualTo("TIME(0)");
        assertThat(DataTypes.TIMESTAMP().asSQLString()).isEqualTo("TIMESTAMP(6)");
        assertThat(DataTypes.TIMESTAMP(3).asSQLString()).isEqualTo("TIMESTAMP(3)");
        assertThat(DataTypes.TIMESTAMP_LTZ(3).asSQLString()).isEqualTo("TIMESTAMP(3) WITH LOCAL TIME ZONE");
        assertThat(DataTypes.VARIANT().asSQLString()).isEqualTo("VARIANT");
    }

    @Test
    void notNullIsAppended() {
        assertThat(DataTypes.INT().notNull().asSQLString()).isEqualTo("INT NOT NULL");
        assertThat(DataTypes.DECIMAL(10, 2).notNull().asSQLString()).isEqualTo("DECIMAL(10, 2) NOT NULL");
        assertThat(DataTypes.VARCHAR(20).notNull().asSQLString()).isEqualTo("VARCHAR(20) NOT NULL");
        assertThat(DataTypes.STRING().notNull().nullable().asSQLString()).isEqualTo("STRING");
    }

    @Test
    void invalidParametersAreRejected() {
        assertThatThrownBy(() -> DataTypes.DECIMAL(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DataTypes.DECIMAL(39, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DataTypes.DECIMAL(5, 6)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DataTypes.TIMESTAMP(10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DataTypes.VARCHAR(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void compactnessThresholds() {
        assertThat(((DecimalType) DataTypes.DECIMAL(18, 2)).isCompact()).isTrue();
        assertThat(((DecimalType) DataTypes.DECIMAL(19, 2)).isCompact()).isFalse();
        assertThat(((TimestampType) DataTypes.TIMESTAMP(3)).isCompact()).isTrue();
        assertThat(((TimestampType) DataTypes.TIMESTAMP(4)).isCompact()).isFalse();
    }

    @Test
    void equalityIncludesParametersAndNullability() {
        assertThat(DataTypes.DECIMAL(10, 2)).isEqualTo(DataTypes.DECIMAL(10, 2));
        assertThat(DataTypes.DECIMAL(10, 2)).isNotEqualTo(DataTypes.DECIMAL(10, 3));
        assertThat(DataTypes.TIMESTAMP(3)).isNotEqualTo(DataTypes.TIMESTAMP_LTZ(3));
        assertThat(DataTypes.TIMESTAMP(3)).isNotEqualTo(DataTypes.TIMESTAMP(6));
        assertThat(DataTypes.INT()).isNotEqualTo(DataTypes.INT().notNull());
        assertThat(DataTypes.INT().equalsIgnoreNullable(DataTypes.INT().notNull())).isTrue();
        assertThat(DataTypes.ARRAY(DataTypes.INT())).isNotEqualTo(DataTypes.ARRAY(DataTypes.STRING()));
        assertThat(DataTypes.ARRAY(DataTypes.INT())).isNotEqualTo(DataTypes.MULTISET(DataTypes.INT()));
        assertThat(DataTypes.MAP(DataTypes.STRING(), DataTypes.INT().notNull())
                .equalsIgnoreNullable(DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.INT()))).isTrue();
    }

    @Test
    void rowTypesRejectDuplicateNamesAndFindFields() {
        assertThatThrownBy(() -> new RowType(List.of(
                        new DataField(0, "a", DataTypes.INT()), new DataField(1, "a", DataTypes.STRING()))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'a'");

        RowType row = new RowType(List.of(
                new DataField(0, "dt", DataTypes.STRING()), new DataField(5, "id", DataTypes.INT())));
        assertThat(row.fieldIndex("id")).isEqualTo(1);
        assertThat(row.fieldIndex("nope")).isEqualTo(-1);
        assertThatThrownBy(() -> row.requireFieldIndex("nope")).hasMessageContaining("'nope'").hasMessageContaining("dt");
        assertThat(row.project(new int[] {1}).fieldNames()).containsExactly("id");
        assertThat(row.project(List.of("id", "dt")).fieldTypes()).containsExactly(DataTypes.INT(), DataTypes.STRING());
        assertThat(row.highestFieldId()).isEqualTo(5);
    }

    @Test
    void nestedRowFieldsAreNumberedAfterTheirOwnChildrenAsInPaimon() {
        DataType nested = DataTypes.ARRAY(DataTypes.ROW(
                DataTypes.FIELD(-1, "x", DataTypes.INT()),
                DataTypes.FIELD(-1, "y", DataTypes.ROW(DataTypes.FIELD(-1, "z", DataTypes.STRING())))));
        int[] nextId = {5};

        DataType renumbered = DataTypes.assignNestedIds(nested, nextId);

        RowType element = (RowType) ((ArrayType) renumbered).elementType();
        // Observed with Paimon 1.3.1's Schema.Builder: y's child z takes an id before y itself.
        assertThat(element.field(0).id()).isEqualTo(5);
        assertThat(((RowType) element.field(1).type()).field(0).id()).isEqualTo(6);
        assertThat(element.field(1).id()).isEqualTo(7);
        assertThat(nextId[0]).isEqualTo(8);
        RowType table = new RowType(List.of(new DataField(4, "arr", renumbered)));
        assertThat(table.highestFieldId()).isEqualTo(7);
    }
}
