package dev.streamhouse.e2e.interop;

import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.OptionDeclarations.Kind;
import dev.streamhouse.storage.options.OptionRegistry;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every table, scan and catalog option Apache Paimon 1.3.1 declares (read from the oracle jar by
 * reflection) is declared here too, with a status, so that none is ever silently ignored: by its key,
 * as a fallback key, or through a family of templated keys. Options declared one by one have Paimon's
 * default (and Paimon's fallback keys are fallback keys here), except the few listed with a reason.
 */
class OptionCoverageInteropTest {
    private static final List<String> TABLE_OPTION_HOLDERS = List.of("org.apache.paimon.CoreOptions",
            "org.apache.paimon.flink.FlinkConnectorOptions", "org.apache.paimon.lookup.rocksdb.RocksDBOptions",
            "org.apache.paimon.iceberg.IcebergOptions");
    private static final List<String> CATALOG_OPTION_HOLDERS = List.of("org.apache.paimon.options.CatalogOptions",
            "org.apache.paimon.flink.FlinkCatalogOptions");

    /** Keys whose default differs on purpose, with the reason. */
    private static final Map<String, String> DIFFERENT_DEFAULTS = Map.of(
            "parquet.enable.dictionary", "Paimon's CoreOptions declares it as an int without default; Parquet itself "
                    + "(and this store) reads a boolean that defaults to true");

    private final OptionRegistry registry = OptionRegistry.instance();

    /** One option of Paimon's: key, default, fallback keys. */
    private record PaimonOption(String holder, String key, Object defaultValue, List<String> fallbackKeys) {}

    private static List<PaimonOption> declaredBy(List<String> holders) throws Exception {
        List<PaimonOption> out = new ArrayList<>();
        for (String holder : holders) {
            for (Field f : Class.forName(holder).getFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                Object o = f.get(null);
                if (!(o instanceof org.apache.paimon.options.ConfigOption)) {
                    continue;
                }
                org.apache.paimon.options.ConfigOption<?> option = (org.apache.paimon.options.ConfigOption<?>) o;
                List<String> fallbacks = new ArrayList<>();
                option.fallbackKeys().forEach(k -> fallbacks.add(k.getKey()));
                out.add(new PaimonOption(holder, option.key(), option.defaultValue(), fallbacks));
            }
        }
        return out;
    }

    @Test
    void everyPaimonOptionHasAStatusHere() throws Exception {
        List<PaimonOption> table = declaredBy(TABLE_OPTION_HOLDERS);
        List<PaimonOption> catalog = declaredBy(CATALOG_OPTION_HOLDERS);
        assertThat(table).hasSizeGreaterThan(300);
        assertThat(catalog).hasSizeGreaterThan(20);
        List<String> missing = new ArrayList<>();
        for (PaimonOption p : table) {
            known(Kind.TABLE, p, missing);
        }
        for (PaimonOption p : catalog) {
            known(Kind.CATALOG, p, missing);
        }
        assertThat(missing).as("Paimon 1.3.1 options without a declaration here").isEmpty();
    }

    private void known(Kind kind, PaimonOption p, List<String> missing) {
        if (!registry.isKnown(kind, p.key())) {
            missing.add(p.key() + " (" + p.holder() + ")");
        }
        for (String fallback : p.fallbackKeys()) {
            if (!registry.isKnown(kind, fallback)) {
                missing.add(fallback + " (fallback of " + p.key() + ")");
            }
        }
    }

    @Test
    void optionsDeclaredOneByOneHavePaimonsDefaultsAndFallbackKeys() throws Exception {
        List<String> differences = new ArrayList<>();
        List<PaimonOption> all = new ArrayList<>(declaredBy(TABLE_OPTION_HOLDERS));
        compare(Kind.TABLE, all, differences);
        compare(Kind.CATALOG, declaredBy(CATALOG_OPTION_HOLDERS), differences);
        assertThat(differences).as("options whose default or fallback keys differ from Paimon 1.3.1's").isEmpty();
    }

    private void compare(Kind kind, List<PaimonOption> options, List<String> differences) {
        for (PaimonOption p : options) {
            Optional<ConfigOption<?>> ours = registry.option(kind, p.key());
            if (ours.isEmpty() || !ours.get().key().equals(p.key()) || DIFFERENT_DEFAULTS.containsKey(p.key())) {
                continue; // templated or fallback here; or a documented difference
            }
            String problem = sameDefault(ours.get(), p.defaultValue());
            if (problem != null) {
                differences.add(p.key() + ": " + problem);
            }
            if (!ours.get().fallbackKeys().containsAll(p.fallbackKeys())) {
                differences.add(p.key() + ": fallback keys " + ours.get().fallbackKeys() + " lack some of Paimon's "
                        + p.fallbackKeys());
            }
        }
    }

    private static <T> String sameDefault(ConfigOption<T> ours, Object theirs) {
        if (theirs == null) {
            return ours.defaultValue() == null ? null : "Paimon has no default, here it is " + ours.defaultValue();
        }
        String text;
        if (theirs instanceof org.apache.paimon.options.MemorySize) {
            text = ((org.apache.paimon.options.MemorySize) theirs).getBytes() + " bytes";
        } else if (theirs instanceof Duration) {
            text = ((Duration) theirs).toMillis() + " ms";
        } else if (theirs instanceof Map) {
            text = ((Map<?, ?>) theirs).isEmpty() ? "" : theirs.toString();
        } else {
            text = theirs.toString();
        }
        T parsed;
        try {
            parsed = ours.parse(text);
        } catch (IllegalArgumentException e) {
            return "Paimon's default '" + text + "' does not parse here: " + e.getMessage();
        }
        return java.util.Objects.equals(parsed, ours.defaultValue()) ? null
                : "Paimon's default is '" + text + "', here it is " + ours.defaultValue();
    }
}
