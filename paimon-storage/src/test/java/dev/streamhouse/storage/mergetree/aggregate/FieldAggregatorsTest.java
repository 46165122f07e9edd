package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.array;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.options.InvalidOptionsException;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class FieldAggregatorsTest {

    private static final DataType ROWS = DataTypes.ARRAY(DataTypes.ROW(
            DataTypes.FIELD(1, "k", DataTypes.INT()), DataTypes.FIELD(2, "v", DataTypes.STRING())));

    @Test
    void listsPaimonsIdentifiers() {
        assertThat(FieldAggregators.IDENTIFIERS).containsExactly("sum", "product", "max", "min", "last_value",
                "last_non_null_value", "first_value", "first_non_null_value", "first_not_null_value", "listagg",
                "bool_and", "bool_or", "collect", "merge_map", "nested_update", "rbm32", "rbm64", "hll_sketch",
                "theta_sketch", "primary-key");
        assertThat(FieldAggregators.isKnown("sum")).isTrue();
        assertThat(FieldAggregators.isKnown("SUM")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"average", "SUM", "first_not_null", ""})
    void refusesUnknownIdentifiersNamingTheColumnAndTheKnownOnes(String identifier) {
        assertThatThrownBy(() -> of(identifier, DataTypes.INT()))
                .isInstanceOf(InvalidOptionsException.class)
                .hasMessageContaining("column 'c'")
                .hasMessageContaining("'" + identifier + "'")
                .hasMessageContaining("[sum, product, max");
    }

    @Test
    void refusesAMissingIdentifier() {
        assertThatThrownBy(() -> FieldAggregators.create("c", DataTypes.INT(), null, new Options()))
                .isInstanceOf(InvalidOptionsException.class).hasMessageContaining("'null'");
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                Arguments.of("sum", List.of(DataTypes.TINYINT(), DataTypes.SMALLINT(), DataTypes.INT(),
                        DataTypes.BIGINT(), DataTypes.FLOAT(), DataTypes.DOUBLE(), DataTypes.DECIMAL(38, 4))),
                Arguments.of("product", List.of(DataTypes.INT().notNull(), DataTypes.DECIMAL(5, 2))),
                Arguments.of("max", List.of(DataTypes.STRING(), DataTypes.BOOLEAN(), ROWS, DataTypes.VARIANT())),
                Arguments.of("min", List.of(DataTypes.TIMESTAMP(3), DataTypes.MAP(DataTypes.INT(), DataTypes.INT()))),
                Arguments.of("last_value", List.of(ROWS, DataTypes.BYTES())),
                Arguments.of("last_non_null_value", List.of(DataTypes.DATE())),
                Arguments.of("first_value", List.of(DataTypes.MULTISET(DataTypes.INT()))),
                Arguments.of("first_non_null_value", List.of(DataTypes.CHAR(3))),
                Arguments.of("first_not_null_value", List.of(DataTypes.DOUBLE())),
                Arguments.of("listagg", List.of(DataTypes.STRING(), DataTypes.VARCHAR(10))),
                Arguments.of("bool_and", List.of(DataTypes.BOOLEAN())),
                Arguments.of("bool_or", List.of(DataTypes.BOOLEAN().notNull())),
                Arguments.of("collect", List.of(DataTypes.ARRAY(DataTypes.INT()), ROWS)),
                Arguments.of("merge_map", List.of(DataTypes.MAP(DataTypes.STRING(), ROWS))),
                Arguments.of("nested_update", List.of(ROWS)),
                Arguments.of("rbm32", List.of(DataTypes.BYTES(), DataTypes.VARBINARY(100))),
                Arguments.of("rbm64", List.of(DataTypes.BYTES())),
                Arguments.of("hll_sketch", List.of(DataTypes.BYTES())),
                Arguments.of("theta_sketch", List.of(DataTypes.VARBINARY(8))),
                Arguments.of("primary-key", List.of(DataTypes.STRING())));
    }

    @ParameterizedTest
    @MethodSource("accepted")
    void acceptsPaimonsTypes(String function, List<DataType> types) {
        for (DataType type : types) {
            assertThat(of(function, type)).as("%s on %s", function, type).isNotNull();
            FieldAggregators.validate("c", type, function, new Options());
        }
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("sum", List.of(DataTypes.STRING(), DataTypes.BOOLEAN(), DataTypes.DATE(),
                        DataTypes.TIMESTAMP(3))),
                Arguments.of("product", List.of(DataTypes.BYTES(), DataTypes.ARRAY(DataTypes.INT()))),
                Arguments.of("listagg", List.of(DataTypes.CHAR(3), DataTypes.INT(), DataTypes.ARRAY(DataTypes.STRING()))),
                Arguments.of("bool_and", List.of(DataTypes.INT(), DataTypes.STRING())),
                Arguments.of("bool_or", List.of(DataTypes.TINYINT())),
                Arguments.of("collect", List.of(DataTypes.MULTISET(DataTypes.INT()), DataTypes.INT(),
                        DataTypes.MAP(DataTypes.INT(), DataTypes.INT()))),
                Arguments.of("merge_map", List.of(DataTypes.MULTISET(DataTypes.INT()), DataTypes.ARRAY(DataTypes.INT()))),
                Arguments.of("nested_update", List.of(DataTypes.ARRAY(DataTypes.INT()),
                        DataTypes.ROW(DataTypes.FIELD(1, "k", DataTypes.INT())))),
                Arguments.of("rbm32", List.of(DataTypes.BINARY(16), DataTypes.STRING())),
                Arguments.of("rbm64", List.of(DataTypes.BINARY(8), DataTypes.BIGINT())),
                Arguments.of("hll_sketch", List.of(DataTypes.BINARY(8))),
                Arguments.of("theta_sketch", List.of(DataTypes.STRING())));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void refusesOtherTypesNamingColumnFunctionAndType(String function, List<DataType> types) {
        for (DataType type : types) {
            assertThatThrownBy(() -> FieldAggregators.validate("c", type, function, new Options()))
                    .as("%s on %s", function, type)
                    .isInstanceOf(InvalidOptionsException.class)
                    .hasMessageContaining("'" + function + "'")
                    .hasMessageContaining("column 'c'")
                    .hasMessageContaining(type.asSQLString())
                    .hasMessageContaining("fields.c.aggregate-function");
        }
    }

    @Test
    void refusesWhatPaimonAcceptsButThisStoreCannotOrderYet() {
        assertThatThrownBy(() -> of("collect", DataTypes.ARRAY(DataTypes.VARIANT())))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("not supported yet");
        assertThatThrownBy(() -> of("merge_map", DataTypes.MAP(DataTypes.ARRAY(DataTypes.INT()), DataTypes.INT())))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("ARRAY<INT>");
    }

    @ParameterizedTest
    @ValueSource(strings = {"max", "min", "first_value", "first_non_null_value", "first_not_null_value",
            "bool_and", "bool_or", "listagg", "rbm32", "rbm64", "hll_sketch", "theta_sketch"})
    void functionsWithoutRetractionSayHowToIgnoreIt(String function) {
        FieldAggregator aggregator = of(function, typeFor(function));
        assertThatThrownBy(() -> aggregator.retract(null, null))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("'" + function + "'")
                .hasMessageContaining("column 'c'")
                .hasMessageContaining("'fields.c.ignore-retract' = 'true'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"max", "sum", "collect", "last_value", "hll_sketch"})
    void ignoreRetractKeepsTheAccumulator(String function) {
        FieldAggregator aggregator = of(function, typeFor(function), "fields.c.ignore-retract", "true");
        Object acc = new Object();
        assertThat(aggregator.retract(acc, acc)).isSameAs(acc);
        assertThat(aggregator.retract(null, acc)).isNull();
    }

    @Test
    void ignoreRetractStillAggregates() {
        FieldAggregator sum = of("sum", DataTypes.INT(), "fields.c.ignore-retract", "TRUE");
        assertThat(sum.agg(3, 4)).isEqualTo(7);
        assertThat(sum.retract(7, 4)).isEqualTo(7);
    }

    @Test
    void ignoreRetractOfOtherColumnsDoesNotApply() {
        FieldAggregator sum = of("sum", DataTypes.INT(), "fields.d.ignore-retract", "true");
        assertThat(sum.retract(7, 4)).isEqualTo(3);
    }

    @Test
    void ignoreRetractTurnsCollectsReversedOrderAround() {
        DataType type = DataTypes.ARRAY(DataTypes.INT());
        GenericArray acc = array(1, 2);
        GenericArray older = array(0);
        assertThat(of("collect", type).aggReversed(acc, older)).isEqualTo(array(1, 2, 0));
        assertThat(of("collect", type, "fields.c.ignore-retract", "true").aggReversed(acc, older))
                .isEqualTo(array(0, 1, 2));
    }

    @Test
    void ignoreRetractForwardsReset() {
        FieldAggregator first = of("first_value", DataTypes.INT(), "fields.c.ignore-retract", "true");
        assertThat(first.agg(null, 1)).isEqualTo(1);
        assertThat(first.agg(1, 2)).isEqualTo(1);
        first.reset();
        assertThat(first.agg(1, 3)).isEqualTo(3);
    }

    @Test
    void refusesIgnoreRetractTogetherWithRemoveRecordOnDelete() {
        assertThatThrownBy(() -> of("sum", DataTypes.INT(), "fields.c.ignore-retract", "true",
                "aggregation.remove-record-on-delete", "true"))
                .isInstanceOf(InvalidOptionsException.class)
                .hasMessageContaining("'aggregation.remove-record-on-delete'")
                .hasMessageContaining("'fields.c.ignore-retract'");
        assertThat(of("sum", DataTypes.INT(), "aggregation.remove-record-on-delete", "true").retract(5, 2)).isEqualTo(3);
    }

    @Test
    void refusesAnInvalidParameterNamingItsKey() {
        assertThatThrownBy(() -> of("sum", DataTypes.INT(), "fields.c.ignore-retract", "yes"))
                .isInstanceOf(InvalidOptionsException.class)
                .hasMessageContaining("'yes'").hasMessageContaining("'fields.c.ignore-retract'");
        assertThatThrownBy(() -> of("nested_update", ROWS, "fields.c.count-limit", "many"))
                .isInstanceOf(InvalidOptionsException.class).hasMessageContaining("'fields.c.count-limit'");
    }

    static DataType typeFor(String function) {
        switch (function) {
            case "bool_and":
            case "bool_or":
                return DataTypes.BOOLEAN();
            case "listagg":
                return DataTypes.STRING();
            case "collect":
                return DataTypes.ARRAY(DataTypes.INT());
            case "rbm32":
            case "rbm64":
            case "hll_sketch":
            case "theta_sketch":
                return DataTypes.BYTES();
            default:
                return DataTypes.INT();
        }
    }
}
