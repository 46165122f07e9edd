package dev.streamhouse.storage.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The string map behind table and catalog options. */
class OptionsTest {

    @Test
    void ofNeedsKeyValuePairs() {
        assertThatThrownBy(() -> Options.of("bucket")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Options.of("a", "1", "b", "2").toMap()).containsExactly(Map.entry("a", "1"), Map.entry("b", "2"));
    }

    @Test
    void withPrefixStripsThePrefixAndIgnoresOtherKeys() {
        Options options = Options.of("fields.a.stats-mode", "none", "fields.b.stats-mode", "full", "bucket", "2");

        assertThat(options.withPrefix("fields.")).containsOnly(
                Map.entry("a.stats-mode", "none"), Map.entry("b.stats-mode", "full"));
    }

    @Test
    void toMapIsSortedAndUnmodifiable() {
        Options options = Options.of("z", "1", "a", "2", "m", "3");

        assertThat(options.toMap().keySet()).containsExactly("a", "m", "z");
        assertThatThrownBy(() -> options.toMap().put("b", "4")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void copiesAreIndependent() {
        Options original = Options.of("bucket", "2");
        Options copy = original.copy();

        copy.set("bucket", "3").set("extra", "x");
        original.remove("bucket");

        assertThat(copy.get("bucket")).isEqualTo("3");
        assertThat(original.containsKey("bucket")).isFalse();
        assertThat(original.containsKey("extra")).isFalse();
    }

    @Test
    void constructorCopiesTheGivenMap() {
        HashMap<String, String> source = new HashMap<>(Map.of("bucket", "2"));
        Options options = new Options(source);

        source.put("bucket", "9");

        assertThat(options.get("bucket")).isEqualTo("2");
        assertThat(options).isEqualTo(Options.of("bucket", "2"));
    }
}
