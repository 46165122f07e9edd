package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.fold;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.types.DataTypes;

import org.junit.jupiter.api.Test;

class ListaggAndBoolAggregatorTest {

    @Test
    void listaggJoinsNonNullStringsWithACommaByDefault() {
        FieldAggregator listagg = of("listagg", DataTypes.STRING());
        assertThat(fold(listagg, null, str("a"), null, str(""), str("ü"))).isEqualTo(str("a,,ü"));
        assertThat(listagg.agg(null, null)).isNull();
        assertThat(listagg.aggReversed(str("new"), str("old"))).isEqualTo(str("old,new"));
    }

    @Test
    void listaggUsesTheColumnsDelimiter() {
        FieldAggregator listagg = of("listagg", DataTypes.VARCHAR(3), "fields.c.list-agg-delimiter", " ¦ ");
        assertThat(fold(listagg, str("abc"), str("def"))).as("not cut to VARCHAR(3)").isEqualTo(str("abc ¦ def"));
        assertThat(of("listagg", DataTypes.STRING(), "fields.c.list-agg-delimiter", "").agg(str("a"), str("b")))
                .isEqualTo(str("ab"));
    }

    @Test
    void listaggReadsStringsThatDoNotSpanTheirArray() {
        byte[] bytes = "xxhello".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        BinaryString slice = BinaryString.fromBytes(bytes, 2, 5);
        assertThat(of("listagg", DataTypes.STRING()).agg(slice, slice)).isEqualTo(str("hello,hello"));
    }

    @Test
    void boolAndIsTrueWhileEveryNonNullInputIs() {
        FieldAggregator and = of("bool_and", DataTypes.BOOLEAN());
        assertThat(fold(and, null, true, null, true)).isEqualTo(true);
        assertThat(fold(and, true, false, true)).isEqualTo(false);
        assertThat(fold(and, null, null)).isNull();
    }

    @Test
    void boolOrIsTrueOnceAnyNonNullInputIs() {
        FieldAggregator or = of("bool_or", DataTypes.BOOLEAN());
        assertThat(fold(or, false, null, false)).isEqualTo(false);
        assertThat(fold(or, false, true, false)).isEqualTo(true);
        assertThat(or.agg(null, false)).isEqualTo(false);
    }
}
