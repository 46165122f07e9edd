package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.NewerPaimonFeatures;
import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.OptionDeclarations.Kind;
import dev.streamhouse.storage.options.OptionPattern;
import dev.streamhouse.storage.options.OptionRegistry;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.SecretOptions;
import dev.streamhouse.storage.schema.TableSchema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Refuses to read or write a table, a snapshot or a file that uses something this store cannot honour
 * exactly as Apache Paimon does, before anything is read or written: a stored option value that is
 * not supported yet (for reads only those declared {@link ConfigOption#affectsReads()}), deletion
 * vectors where they are not used (append tables, tables whose option no longer says they are used) or
 * unknown index files, data files in a format other than Parquet, at an external path or holding only some columns,
 * and the options of newer Paimon releases that change what a read returns
 * ({@link NewerPaimonFeatures#ROW_CHANGING_OPTIONS}). Global indexes of newer releases only speed up queries:
 * reads skip them, writes are refused. Each refusal is an {@link UnsupportedTableFeatureException} naming the
 * table and the feature (and for newer releases' features, the release).
 */
public final class TableFeatureCheck {

    /** What is about to happen with the table. */
    public enum Access {
        BATCH_READ("read"),
        STREAM_READ("stream-read"),
        WRITE("write to");

        private final String verb;

        Access(String verb) {
            this.verb = verb;
        }
    }

    private TableFeatureCheck() {}

    /** Checks the table's stored options for {@code access}. */
    public static void checkOptions(TableSchema schema, String table, Access access) {
        List<String> problems = new ArrayList<>();
        Set<String> handled = new HashSet<>();
        for (NewerPaimonFeatures.RowChangingOption newer : NewerPaimonFeatures.ROW_CHANGING_OPTIONS) {
            String value = schema.options().get(newer.key());
            if (value != null && newer.changesRows(value)) {
                problems.add("it uses option '" + newer.key() + "' = '" + value + "' (added in " + newer.release()
                        + "; " + newer.effect() + "), which this store does not support");
            }
        }
        String format = schema.options().get(FileFormatOptions.FILE_FORMAT.key());
        if (format != null && NewerPaimonFeatures.FILE_FORMATS.containsKey(format.trim().toLowerCase(Locale.ROOT))) {
            problems.add("it uses option '" + FileFormatOptions.FILE_FORMAT.key() + "' = "
                    + NewerPaimonFeatures.describeFormat(format.trim()) + ", which this store does not read or write");
            handled.add(FileFormatOptions.FILE_FORMAT.key());
        }
        OptionRegistry registry = OptionRegistry.instance();
        for (Map.Entry<String, String> e : new TreeMap<>(schema.options()).entrySet()) {
            if (handled.contains(e.getKey())) {
                continue;
            }
            Optional<ConfigOption<?>> option = registry.option(Kind.TABLE, e.getKey());
            ConfigOption<?> declaration = option.orElseGet(
                    () -> registry.pattern(Kind.TABLE, e.getKey()).map(OptionPattern::prototype).orElse(null));
            if (declaration != null && (access == Access.WRITE || declaration.affectsReads())) {
                String problem = problem(declaration, e.getKey(), e.getValue());
                if (problem != null) {
                    problems.add(problem);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new UnsupportedTableFeatureException("Cannot " + access.verb + " table " + table + ": "
                    + String.join("; ", problems));
        }
    }

    private static <T> String problem(ConfigOption<T> declaration, String key, String value) {
        String shown = SecretOptions.isSecret(key) ? SecretOptions.MASK : value;
        T parsed;
        try {
            parsed = declaration.parse(value);
        } catch (IllegalArgumentException e) {
            return "it stores option '" + key + "' = '" + shown + "', which cannot be parsed (expected "
                    + declaration.typeName() + ")";
        }
        String reason = declaration.unsupportedReason(parsed);
        return reason == null ? null
                : "it uses option '" + key + "' = '" + shown + "', which is not supported yet (" + reason + ")";
    }

    private static <T> T parsedOrNull(ConfigOption<T> option, Options options) {
        try {
            return options.get(option);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Checks that every data file of {@code entries} can be read as it is. */
    public static void checkDataFiles(String table, Collection<ManifestEntry> entries, Access access) {
        for (ManifestEntry entry : entries) {
            DataFileMeta file = entry.file();
            String format = DataFilePathFactory.formatOf(file.fileName()).toLowerCase(Locale.ROOT);
            if (!format.equals("parquet")) {
                throw refused(table, access, "data file " + file.fileName() + " is in format "
                        + NewerPaimonFeatures.describeFormat(format) + ", and only Parquet data files are read and written");
            }
            if (file.externalPath() != null) {
                throw refused(table, access, "data file " + file.fileName() + " is stored at the external path "
                        + file.externalPath() + " ('data-file.external-paths'), which is not supported yet");
            }
            if (file.writeCols() != null) {
                throw refused(table, access, "data file " + file.fileName() + " holds only the columns "
                        + file.writeCols() + " (data evolution), which is not supported yet");
            }
        }
    }

    /**
     * Checks the index files of a snapshot of a table with {@code schema}: unknown indexes are not
     * understood; deletion vectors are read (batch and streaming) and maintained by writes only for
     * primary-key tables with {@code deletion-vectors.enabled}.
     */
    public static void checkIndexFiles(TableSchema schema, String table, Collection<IndexManifestEntry> entries,
            Access access) {
        for (IndexManifestEntry entry : entries) {
            IndexFileMeta index = entry.indexFile();
            if (IndexFileMeta.DELETION_VECTORS_INDEX.equals(index.indexType())) {
                String problem = deletionVectorProblem(schema, access);
                if (problem != null) {
                    throw refused(table, access, "it has deletion vectors (index file " + index.fileName() + "), "
                            + problem);
                }
                continue;
            }
            if (index.globalIndex() && !IndexFileMeta.HASH_INDEX.equals(index.indexType())) {
                // A global index (Paimon 1.4+) only speeds up queries: reads skip it and return the same rows.
                if (access == Access.WRITE) {
                    throw refused(table, access, "it has a global index of type '" + index.indexType() + "' (index file "
                            + index.fileName() + ", added in " + NewerPaimonFeatures.GLOBAL_INDEX_TYPES.getOrDefault(
                                    index.indexType(), "a Paimon release after 1.3") + "), which this store does not "
                            + "maintain; writing would leave it stale or drop it");
                }
                continue;
            }
            if (!IndexFileMeta.HASH_INDEX.equals(index.indexType())) {
                throw refused(table, access, "it has an index file " + index.fileName() + " of unknown type '"
                        + index.indexType() + "' (written by a newer Paimon?)");
            }
        }
    }

    /** Why the deletion vectors of a table cannot be used for {@code access}, or null if they can. */
    private static String deletionVectorProblem(TableSchema schema, Access access) {
        if (!schema.hasPrimaryKey()) {
            return access == Access.WRITE
                    ? "which this store does not maintain for append tables yet; writing would leave them stale"
                    : "which are not read yet for append tables; reading it would return rows Paimon has deleted";
        }
        if (!Boolean.TRUE.equals(parsedOrNull(MergeTreeOptions.DELETION_VECTORS_ENABLED, schema.tableOptions()))) {
            return "but option '" + MergeTreeOptions.DELETION_VECTORS_ENABLED.key() + "' is not 'true' (it was "
                    + "turned off after they were written), so they are not applied and merging the files without them "
                    + "is not exact; turn the option back on (with Paimon) to " + (access == Access.WRITE
                            ? "write" : "read") + " the table";
        }
        return null;
    }

    private static UnsupportedTableFeatureException refused(String table, Access access, String why) {
        return new UnsupportedTableFeatureException("Cannot " + access.verb + " table " + table + ": " + why);
    }
}
