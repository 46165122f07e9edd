package dev.streamhouse.storage;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What Apache Paimon releases after 1.3 added to the table format, each with the release that added it
 * (docs/compatibility.md, "Tables written by newer Paimon releases"). One list that the readers, the
 * feature checks and the docs share.
 *
 * <p>Two kinds of additions:
 * <ul>
 *   <li><b>Skippable</b>: trailing nullable metadata fields and snapshot members that only describe
 *       (row-id ranges of manifests, global indexes, a snapshot's uuid and operation). Reads skip them
 *       and return the same rows; writes are refused, since rewriting the metadata would drop them.
 *   <li><b>Row-changing</b>: column types, data file formats and table options that change what a read
 *       returns. Reads and writes are refused, naming the feature and the release.
 * </ul>
 * Anything else this store does not know (another field, member, type or index) is refused as well,
 * because it cannot be told apart from a row-changing addition.
 */
public final class NewerPaimonFeatures {
    public static final String PAIMON_1_4 = "Apache Paimon 1.4";
    public static final String PAIMON_2_0 = "Apache Paimon 2.0";
    public static final String AFTER_2_0 = "Apache Paimon after 2.0 (unreleased)";

    /** Trailing nullable fields of manifest list records (row-id range of each manifest). */
    public static final Map<String, String> MANIFEST_LIST_FIELDS = Map.of(
            "_MIN_ROW_ID", PAIMON_1_4,
            "_MAX_ROW_ID", PAIMON_1_4);

    /**
     * Trailing nullable fields of index manifest records: {@code _GLOBAL_INDEX} describes a global index
     * file (row range, indexed field ids, index meta; 2.0 adds {@code _SOURCE_META} inside it).
     */
    public static final String GLOBAL_INDEX_FIELD = "_GLOBAL_INDEX";

    public static final Map<String, String> INDEX_MANIFEST_FIELDS = Map.of(GLOBAL_INDEX_FIELD, PAIMON_1_4);

    /** Snapshot JSON members that do not change the snapshot's rows. */
    public static final Map<String, String> SNAPSHOT_MEMBERS = Map.of(
            "uuid", PAIMON_2_0,
            "operation", PAIMON_2_0,
            "writerVersion", AFTER_2_0);

    /** Global index types (only speed up queries), for messages and docs; any index with {@code _GLOBAL_INDEX} is one. */
    public static final Map<String, String> GLOBAL_INDEX_TYPES = Map.ofEntries(
            Map.entry("btree", PAIMON_1_4),
            Map.entry("bitmap", PAIMON_1_4),
            Map.entry("lumina-vector-ann", PAIMON_1_4),
            Map.entry("lumina", PAIMON_2_0),
            Map.entry("full-text", PAIMON_2_0),
            Map.entry("es-index", PAIMON_2_0),
            Map.entry("diskann", PAIMON_2_0),
            Map.entry("ivf-flat", PAIMON_2_0),
            Map.entry("ivf-pq", PAIMON_2_0),
            Map.entry("ivf-rq", PAIMON_2_0),
            Map.entry("ivf-sq", PAIMON_2_0));

    /** Column types (schema JSON spelling, upper case). */
    public static final Map<String, String> COLUMN_TYPES = Map.of(
            "BLOB", PAIMON_1_4,
            "VECTOR", PAIMON_1_4,
            "GEOMETRY", AFTER_2_0,
            "GEOGRAPHY", AFTER_2_0);

    /** Data file formats ({@code file.format} values and file extensions). */
    public static final Map<String, String> FILE_FORMATS = Map.of(
            "blob", PAIMON_1_4,
            "text", PAIMON_1_4,
            "vortex", PAIMON_2_0,
            "mosaic", PAIMON_2_0,
            "row", PAIMON_2_0);

    /**
     * A table option that changes what a read returns when set to anything but its default.
     *
     * @param neutralValue the value that reads like Paimon 1.3 (the default), or null if any value changes reads
     */
    public record RowChangingOption(String key, String release, String neutralValue, String effect) {
        /** Whether {@code value} changes what a read returns. */
        public boolean changesRows(String value) {
            return neutralValue == null || !neutralValue.equalsIgnoreCase(value.trim());
        }
    }

    public static final List<RowChangingOption> ROW_CHANGING_OPTIONS = List.of(
            new RowChangingOption("chain-table.enabled", PAIMON_1_4, "false",
                    "a chain table reads partitions from its snapshot and delta branches"),
            new RowChangingOption("scan.fallback-snapshot-branch", PAIMON_1_4, null,
                    "partitions missing on the main branch are read from the chain snapshot branch"),
            new RowChangingOption("scan.fallback-delta-branch", PAIMON_1_4, null,
                    "partitions missing on the main branch are read from the chain delta branch"),
            new RowChangingOption("sequence.snapshot-ordering", PAIMON_2_0, "false",
                    "merging orders records by the snapshot that committed them, not by sequence number"),
            new RowChangingOption("deletion-vectors.merge-on-read", PAIMON_2_0, "false",
                    "batch reads also return level-0 files not yet compacted"),
            new RowChangingOption("postpone.merge-on-read", PAIMON_2_0, "false",
                    "batch reads merge rows of the postpone bucket into the real buckets"));

    private NewerPaimonFeatures() {}

    /** The newer column type {@code typeText} starts with (e.g. "BLOB NOT NULL"), if any. */
    public static Optional<String> newerColumnType(String typeText) {
        String upper = typeText.trim().toUpperCase(Locale.ROOT);
        for (String type : COLUMN_TYPES.keySet()) {
            if (upper.equals(type) || upper.startsWith(type + " ") || upper.startsWith(type + "<")
                    || upper.startsWith(type + "(")) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /** "[uuid (added in Apache Paimon 2.0), ...]": {@code names} with the release each is listed with in {@code releases}. */
    public static String describe(java.util.Collection<String> names, Map<String, String> releases) {
        List<String> out = new java.util.ArrayList<>();
        for (String name : names) {
            out.add(name + " (added in " + releases.getOrDefault(name, "a Paimon release after 1.3") + ")");
        }
        return out.toString();
    }

    /** "file format 'blob' (added in Apache Paimon 1.4)" or the plain name for other formats. */
    public static String describeFormat(String format) {
        String release = FILE_FORMATS.get(format.toLowerCase(Locale.ROOT));
        return release == null ? "'" + format + "'" : "'" + format + "' (added in " + release + ")";
    }
}
