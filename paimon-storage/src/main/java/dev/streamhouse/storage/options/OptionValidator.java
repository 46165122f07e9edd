package dev.streamhouse.storage.options;

import dev.streamhouse.storage.NewerPaimonFeatures;
import dev.streamhouse.storage.options.OptionDeclarations.Kind;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks options against their declarations before anything is written: every value parses and is
 * in range, no option is set to something not supported yet, and the combination works
 * ({@link TableOptionRules}). Options without effect yet and unknown keys are accepted, each with a
 * warning naming it (unknown ones with the nearest known key), as Paimon accepts unknown keys.
 *
 * <p>Entry points: {@code CREATE TABLE} ({@link #checkNewTable}), {@code ALTER TABLE SET / RESET}
 * ({@link #checkAlteredTable}), dynamic options such as SQL hints ({@link #checkDynamicOptions}) and
 * catalog options ({@link #checkCatalogOptions}). Values of secret options never appear in messages.
 */
public final class OptionValidator {
    private static final Logger LOG = LoggerFactory.getLogger(OptionValidator.class);
    private static final String TABLE_DEFAULT_PREFIX = "table-default.";

    private final OptionRegistry registry;

    public OptionValidator(OptionRegistry registry) {
        this.registry = registry;
    }

    /** A validator over every declaration on the classpath. */
    public static OptionValidator instance() {
        return new OptionValidator(OptionRegistry.instance());
    }

    /**
     * The options of a table being created.
     *
     * @param subject what the options belong to, for warnings, e.g. {@code table db.t}
     * @return the warnings (already logged)
     * @throws InvalidOptionsException listing every problem
     */
    public List<String> checkNewTable(String subject, TableShape shape, Map<String, String> options) {
        return check(subject, shape, options, options.keySet(), null);
    }

    /**
     * The options of a table after {@code ALTER TABLE}; only the changed keys are checked one by one,
     * the combination as a whole.
     */
    public List<String> checkAlteredTable(String subject, TableShape shape, Map<String, String> newOptions,
            Collection<String> changedKeys) {
        return check(subject, shape, newOptions, changedKeys, null);
    }

    /**
     * Dynamic options (SQL hints, {@code Table.copy}) on top of a table's stored options: each dynamic
     * option is checked, immutable options may not change, and the combination must work.
     */
    public List<String> checkDynamicOptions(String subject, TableShape shape, Map<String, String> stored,
            Map<String, String> dynamic) {
        Map<String, String> merged = new java.util.HashMap<>(stored);
        merged.putAll(dynamic);
        return check(subject, shape, merged, dynamic.keySet(), stored);
    }

    /** The options of {@code CREATE CATALOG}; {@code table-default.*} entries are checked as table options. */
    public List<String> checkCatalogOptions(String subject, Map<String, String> options) {
        List<String> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey();
            if (key.startsWith(TABLE_DEFAULT_PREFIX) && key.length() > TABLE_DEFAULT_PREFIX.length()) {
                checkEntry(Kind.TABLE, key.substring(TABLE_DEFAULT_PREFIX.length()), e.getValue(), key, errors, warnings);
            } else {
                checkEntry(Kind.CATALOG, key, e.getValue(), key, errors, warnings);
            }
        }
        return finish(subject, errors, warnings);
    }

    /** @param stored the stored options dynamic options may not change immutable ones of, or null */
    private List<String> check(String subject, TableShape shape, Map<String, String> options,
            Collection<String> keysToCheck, Map<String, String> stored) {
        List<String> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (String key : keysToCheck) {
            String value = options.get(key);
            if (value == null) {
                continue; // reset: nothing to parse
            }
            if (stored == null && SecretOptions.isSecret(key)) {
                errors.add("option '" + key + "' holds a credential, which would be stored in plain text in the "
                        + "table's schema file; set it in the catalog options (CREATE CATALOG ... WITH) or as a "
                        + "dynamic option instead");
                continue;
            }
            checkEntry(Kind.TABLE, key, value, key, errors, warnings);
            if (stored != null) {
                checkImmutable(key, value, stored, errors);
            }
        }
        if (errors.isEmpty()) {
            errors.addAll(TableOptionRules.problems(shape, options));
        }
        return finish(subject, errors, warnings);
    }

    private void checkImmutable(String key, String value, Map<String, String> stored, List<String> errors) {
        Optional<ConfigOption<?>> option = registry.option(Kind.TABLE, key);
        if (option.isPresent() && option.get().isImmutable()
                && !Objects.equals(effective(option.get(), stored.get(key)), effective(option.get(), value))) {
            errors.add("option '" + key + "' cannot be changed by dynamic options: it is fixed when the table is "
                    + "created");
        }
    }

    /** The value {@code text} means for {@code option} (its default when unset), or the text if it does not parse. */
    private static Object effective(ConfigOption<?> option, String text) {
        if (text == null) {
            return option.defaultValue();
        }
        try {
            return option.parse(text);
        } catch (IllegalArgumentException e) {
            return text;
        }
    }

    /**
     * Checks one entry.
     *
     * @param shownKey the key as the user wrote it (e.g. with {@code table-default.}), for messages
     */
    private void checkEntry(Kind kind, String key, String value, String shownKey, List<String> errors,
            List<String> warnings) {
        Optional<ConfigOption<?>> option = registry.option(kind, key);
        ConfigOption<?> declaration;
        if (option.isPresent()) {
            declaration = option.get();
        } else {
            Optional<OptionPattern> pattern = registry.pattern(kind, key);
            if (pattern.isEmpty()) {
                String newer = kind == Kind.TABLE ? newerRowChangingOption(key, value, shownKey) : null;
                if (newer != null) {
                    errors.add(newer);
                } else {
                    warnings.add(unknown(kind, key, shownKey));
                }
                return;
            }
            declaration = pattern.get().prototype();
        }
        checkValue(declaration, shownKey, value, errors, warnings);
    }

    private static <T> void checkValue(ConfigOption<T> declaration, String shownKey, String value, List<String> errors,
            List<String> warnings) {
        String shownValue = SecretOptions.isSecret(shownKey) ? SecretOptions.MASK : value;
        T parsed;
        try {
            parsed = declaration.parseAndCheck(value);
        } catch (IllegalArgumentException e) {
            errors.add(SecretOptions.isSecret(shownKey)
                    ? "invalid value for option '" + shownKey + "' (expected " + declaration.typeName() + ")"
                    : e.getMessage().replace("option '" + declaration.key() + "'", "option '" + shownKey + "'"));
            return;
        }
        String unsupported = declaration.unsupportedReason(parsed);
        if (unsupported != null) {
            errors.add("option '" + shownKey + "' is not supported yet (set to '" + shownValue + "'): " + unsupported);
            return;
        }
        if (declaration.status() == OptionStatus.NO_EFFECT) {
            warnings.add("option '" + shownKey + "' = '" + shownValue + "' has no effect yet: "
                    + declaration.statusNote());
        }
    }

    /** Why a table option of a newer Paimon that changes what reads return cannot be set, or null. */
    private static String newerRowChangingOption(String key, String value, String shownKey) {
        for (NewerPaimonFeatures.RowChangingOption newer : NewerPaimonFeatures.ROW_CHANGING_OPTIONS) {
            if (newer.key().equals(key) && newer.changesRows(value)) {
                return "option '" + shownKey + "' = '" + value + "' is not supported (added in " + newer.release()
                        + "; " + newer.effect() + ")";
            }
        }
        return null;
    }

    private String unknown(Kind kind, String key, String shownKey) {
        Optional<String> nearest = registry.nearestKey(kind, key);
        return "unknown option '" + shownKey + "' is kept but nothing reads it"
                + nearest.map(n -> "; did you mean '" + n + "'?").orElse("");
    }

    private static List<String> finish(String subject, List<String> errors, List<String> warnings) {
        if (!errors.isEmpty()) {
            throw new InvalidOptionsException(errors);
        }
        for (String warning : warnings) {
            LOG.warn("{}: {}", subject, warning);
        }
        return warnings;
    }
}
