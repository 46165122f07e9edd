package dev.streamhouse.storage.options;

import dev.streamhouse.storage.options.OptionDeclarations.Group;
import dev.streamhouse.storage.options.OptionDeclarations.Kind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The declarations are complete and consistent; lookups by key, fallback key and template work. */
class OptionRegistryTest {
    private final OptionRegistry registry = OptionRegistry.instance();

    private List<ConfigOption<?>> everyDeclaration() {
        List<ConfigOption<?>> all = new ArrayList<>();
        for (Group g : registry.groups()) {
            all.addAll(g.options());
            g.patterns().forEach(p -> all.add(p.prototype()));
        }
        return all;
    }

    @Test
    void everyDeclarationIsDescribedAndSaysWhatIsMissing() {
        assertThat(everyDeclaration()).hasSizeGreaterThan(200);
        for (ConfigOption<?> o : everyDeclaration()) {
            assertThat(o.description()).as("description of %s", o.key()).isNotBlank();
            if (o.status() != OptionStatus.SUPPORTED) {
                assertThat(o.statusNote()).as("what %s lacks", o.key()).isNotBlank();
            }
        }
    }

    @Test
    void optionsWithoutEffectNeverChangeWhatAReadReturns() {
        for (ConfigOption<?> o : everyDeclaration()) {
            if (o.status() == OptionStatus.NO_EFFECT) {
                assertThat(o.affectsReads()).as("%s is accepted without effect, so it must not change reads", o.key())
                        .isFalse();
            }
        }
    }

    @Test
    void defaultsParseBackAndPassTheirOwnChecks() {
        for (ConfigOption<?> o : everyDeclaration()) {
            checkDefault(o);
        }
    }

    private static <T> void checkDefault(ConfigOption<T> o) {
        if (o.defaultValue() == null) {
            return;
        }
        String text = o.format(o.defaultValue());
        assertThat(o.parseAndCheck(text)).as("default of %s ('%s')", o.key(), text).isEqualTo(o.defaultValue());
        assertThat(o.unsupportedReason(o.defaultValue())).as("the default of %s is supported", o.key()).isNull();
    }

    @Test
    void findsOptionsByKeyFallbackKeyAndTemplate() {
        assertThat(registry.option(Kind.TABLE, "ignore-delete")).contains(MergeTreeOptions.IGNORE_DELETE);
        assertThat(registry.option(Kind.TABLE, "deduplicate.ignore-delete")).contains(MergeTreeOptions.IGNORE_DELETE);
        assertThat(registry.pattern(Kind.TABLE, "fields.price.aggregate-function")).isPresent();
        assertThat(registry.pattern(Kind.TABLE, "fields.a,b.sequence-group").orElseThrow().columns("fields.a,b.sequence-group"))
                .contains(List.of("a", "b"));
        assertThat(registry.pattern(Kind.TABLE, "commit.callback.com.example.Hook.param")).isPresent();
        assertThat(registry.pattern(Kind.TABLE, "parquet.bloom.filter.fpp#id")).isPresent();
        assertThat(registry.isKnown(Kind.TABLE, "scan.tag-nam")).isFalse();
        assertThat(registry.isKnown(Kind.CATALOG, "warehouse")).isTrue();
        assertThat(registry.isKnown(Kind.TABLE, "warehouse")).isFalse();
    }

    @Test
    void suggestsTheNearestKeyForATypo() {
        assertThat(registry.nearestKey(Kind.TABLE, "snapshot.num-retain.max")).contains("snapshot.num-retained.max");
        assertThat(registry.nearestKey(Kind.TABLE, "merge-engin")).contains("merge-engine");
        assertThat(registry.nearestKey(Kind.TABLE, "something-entirely-different")).isEmpty();
    }

    @Test
    void immutableOptionsIncludePaimonsAndTheRemoveRecordFamily() {
        assertThat(registry.immutableKeys()).contains("bucket-key", "merge-engine", "ignore-delete",
                "ignore-update-before", "rowkind.field", "primary-key", "partition", "force-lookup",
                "data-file.path-directory", "index-file-in-data-file-dir", "data-evolution.enabled",
                "bucket-function.type");
        assertThat(registry.isImmutable("fields.x.remove-record-on-delete")).isTrue();
        assertThat(registry.isImmutable("write-buffer-size")).isFalse();
    }

    @Test
    void aKeyDeclaredTwiceIsAnError() {
        ConfigOption<Integer> a = ConfigOption.key("x").intType().defaultValue(1).withDescription("a");
        ConfigOption<Integer> b = ConfigOption.key("x").intType().defaultValue(2).withDescription("b");
        assertThatThrownBy(() -> new OptionRegistry(List.of(
                new Group("one", Kind.TABLE, List.of(a), List.of()), new Group("two", Kind.TABLE, List.of(b), List.of()))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'x' is declared twice");
    }
}
