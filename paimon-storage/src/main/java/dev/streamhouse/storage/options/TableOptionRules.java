package dev.streamhouse.storage.options;

import dev.streamhouse.storage.options.ChangelogOptions.ChangelogProducer;
import dev.streamhouse.storage.options.ScanOptions.StartupMode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Combinations of table options that cannot work, as Apache Paimon 1.3 refuses them when a table is
 * created, altered or read with dynamic options: a changelog producer without a primary key,
 * sequence fields that do not exist, retention minimums above their maximums, scan options that
 * contradict the scan mode, and so on. Each problem names the options involved.
 *
 * <p>Rules only look at values that parse; a value that does not parse is reported by
 * {@link OptionValidator} on its own.
 */
final class TableOptionRules {
    private static final String FIELDS_PREFIX = "fields.";

    private final TableShape shape;
    private final Options options;
    private final List<String> problems = new ArrayList<>();

    private TableOptionRules(TableShape shape, Map<String, String> options) {
        this.shape = shape;
        this.options = new Options(options);
    }

    /** Every problem of the combination, in a fixed order; empty if there is none. */
    static List<String> problems(TableShape shape, Map<String, String> options) {
        TableOptionRules rules = new TableOptionRules(shape, options);
        rules.changelogProducerNeedsPrimaryKey();
        rules.appendTableRules();
        rules.sequenceFields();
        rules.mergeEngineRules();
        rules.changelogRules();
        rules.deletionVectorRules();
        rules.fieldOptionsNameColumns();
        rules.retention();
        rules.startupMode();
        rules.scanPartitions();
        return rules.problems;
    }

    private void changelogProducerNeedsPrimaryKey() {
        ChangelogProducer producer = parsed(ChangelogOptions.CHANGELOG_PRODUCER);
        if (!shape.hasPrimaryKey() && producer != null && producer != ChangelogProducer.NONE) {
            problems.add("option 'changelog-producer' = '" + producer + "' needs a primary key, and the table has "
                    + "none; declare a PRIMARY KEY or remove the option");
        }
    }

    private void appendTableRules() {
        if (shape.hasPrimaryKey()) {
            return;
        }
        Integer bucket = parsed(BucketOptions.BUCKET);
        if (bucket != null && bucket == -1 && options.contains(MergeTreeOptions.FULL_COMPACTION_DELTA_COMMITS)) {
            problems.add("option 'full-compaction.delta-commits' needs a primary key or a fixed 'bucket'; an append "
                    + "table with 'bucket' = -1 is never fully compacted");
        }
        if (Boolean.TRUE.equals(parsed(StreamReadOptions.STREAMING_READ_OVERWRITE))) {
            problems.add("option 'streaming-read-overwrite' is for primary-key tables; use "
                    + "'streaming-read-append-overwrite' for an append table");
        }
    }

    private void sequenceFields() {
        String raw = options.get(MergeTreeOptions.SEQUENCE_FIELD.key());
        if (raw == null) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (String part : raw.split(",")) {
            String field = part.trim();
            if (!shape.columns().contains(field)) {
                problems.add("option 'sequence.field' names column '" + field + "', which does not exist; columns "
                        + "are " + shape.columns());
            } else if (!seen.add(field)) {
                problems.add("option 'sequence.field' names column '" + field + "' more than once");
            }
        }
        if (shape.crossPartitionUpsert()) {
            problems.add("option 'sequence.field' cannot be used when the primary key " + shape.primaryKeys()
                    + " does not include all partition keys " + shape.partitionKeys());
        }
    }

    /**
     * Deletion vectors as Paimon 1.3 allows them: with the none, input and lookup changelog producers,
     * not with first-row. On append tables Paimon allows them (for row-level deletes), this store does
     * not maintain them yet.
     */
    private void deletionVectorRules() {
        if (!Boolean.TRUE.equals(parsed(MergeTreeOptions.DELETION_VECTORS_ENABLED))) {
            return;
        }
        if (!shape.hasPrimaryKey()) {
            problems.add("option 'deletion-vectors.enabled' = 'true' on a table without a primary key is not "
                    + "supported yet: deletion vectors are maintained for primary-key tables only");
            return;
        }
        ChangelogProducer producer = parsed(ChangelogOptions.CHANGELOG_PRODUCER);
        if (producer == ChangelogProducer.FULL_COMPACTION) {
            problems.add("option 'deletion-vectors.enabled' = 'true' cannot be used with 'changelog-producer' = "
                    + "'full-compaction': deletion vectors work with the 'none', 'input' and 'lookup' producers");
        }
        if (parsed(MergeTreeOptions.MERGE_ENGINE) == MergeTreeOptions.MergeEngine.FIRST_ROW) {
            problems.add("option 'deletion-vectors.enabled' = 'true' cannot be used with 'merge-engine' = "
                    + "'first-row': that engine never deletes older data, so it needs no deletion vectors");
        }
    }

    /** The columns {@code changelog-producer.row-deduplicate-ignore-fields} names must exist. */
    private void changelogRules() {
        String ignored = options.get(ChangelogOptions.CHANGELOG_PRODUCER_ROW_DEDUPLICATE_IGNORE_FIELDS.key());
        if (ignored == null || !shape.hasPrimaryKey()) {
            return;
        }
        for (String name : ignored.split(",")) {
            if (!name.isBlank() && !shape.columns().contains(name.trim())) {
                problems.add("option '" + ChangelogOptions.CHANGELOG_PRODUCER_ROW_DEDUPLICATE_IGNORE_FIELDS.key()
                        + "' names column '" + name.trim() + "', which does not exist; columns are " + shape.columns());
            }
        }
    }

    /**
     * What Paimon refuses for merge engines by the options alone: first-row with sequence fields or a
     * changelog producer other than none/lookup, and aggregate functions on sequence columns. What
     * needs the column types (functions per type, sequence groups) is checked when the engine is built.
     */
    private void mergeEngineRules() {
        MergeTreeOptions.MergeEngine engine = parsed(MergeTreeOptions.MERGE_ENGINE);
        if (!shape.hasPrimaryKey() || engine == null) {
            return;
        }
        if (engine == MergeTreeOptions.MergeEngine.FIRST_ROW) {
            if (options.get(MergeTreeOptions.SEQUENCE_FIELD.key()) != null) {
                problems.add("option 'sequence.field' cannot be used with 'merge-engine' = 'first-row': the first "
                        + "row of a key wins, whatever its sequence");
            }
            ChangelogProducer producer = parsed(ChangelogOptions.CHANGELOG_PRODUCER);
            if (producer != null && producer != ChangelogProducer.NONE && producer != ChangelogProducer.LOOKUP) {
                problems.add("option 'changelog-producer' = '" + producer + "' cannot be used with 'merge-engine' = "
                        + "'first-row', which supports only 'none' and 'lookup'");
            }
        }
        String sequence = options.get(MergeTreeOptions.SEQUENCE_FIELD.key());
        if (sequence != null) {
            for (String part : sequence.split(",")) {
                String key = FIELDS_PREFIX + part.trim() + ".aggregate-function";
                if (options.get(key) != null) {
                    problems.add("option '" + key + "' aggregates column '" + part.trim() + "', which is a "
                            + "'sequence.field'; sequence columns cannot aggregate");
                }
            }
        }
        for (String key : options.toMap().keySet()) {
            if (key.startsWith(FIELDS_PREFIX) && key.endsWith(".sequence-group")) {
                for (String member : options.get(key).split(",")) {
                    if (!shape.columns().contains(member.trim())) {
                        problems.add("option '" + key + "' names column '" + member.trim() + "', which does not "
                                + "exist; columns are " + shape.columns());
                    }
                }
                String names = key.substring(FIELDS_PREFIX.length(), key.length() - ".sequence-group".length());
                for (String name : names.split(",")) {
                    String aggregate = FIELDS_PREFIX + name.trim() + ".aggregate-function";
                    if (options.get(aggregate) != null) {
                        problems.add("option '" + aggregate + "' aggregates column '" + name.trim() + "', which is "
                                + "the sequence column of option '" + key + "'; sequence columns cannot aggregate");
                    }
                }
            }
        }
    }

    /** {@code scan.partitions} may only name partition keys (values are checked when a read parses them). */
    private void scanPartitions() {
        String raw = parsed(ScanOptions.SCAN_PARTITIONS);
        if (raw == null) {
            return;
        }
        if (shape.partitionKeys().isEmpty()) {
            problems.add("option 'scan.partitions' = '" + raw + "' selects partitions, and the table is not partitioned");
            return;
        }
        for (String partition : raw.split(";")) {
            for (String pair : partition.split(",")) {
                String[] kv = pair.split("=", 2);
                if (kv.length == 2 && !shape.partitionKeys().contains(kv[0].trim())) {
                    problems.add("option 'scan.partitions' = '" + raw + "' names '" + kv[0].trim()
                            + "', which is not a partition key; partition keys are " + shape.partitionKeys());
                } else if (kv.length != 2 && !pair.isBlank() && !pair.trim().equalsIgnoreCase("max_pt()")
                        && !pair.trim().equalsIgnoreCase("max_two_pt()")) {
                    problems.add("option 'scan.partitions' = '" + raw + "': '" + pair.trim() + "' is not 'key=value', "
                            + "'max_pt()' or 'max_two_pt()'");
                }
            }
        }
    }

    /** Paimon refuses a {@code fields.<name>.*} option whose column does not exist. */
    private void fieldOptionsNameColumns() {
        for (String key : options.toMap().keySet()) {
            if (!key.startsWith(FIELDS_PREFIX) || key.equals(MergeEngineOptions.FIELDS_DEFAULT_AGGREGATE_FUNCTION.key())) {
                continue;
            }
            int end = key.indexOf('.', FIELDS_PREFIX.length());
            String names = end < 0 ? key.substring(FIELDS_PREFIX.length()) : key.substring(FIELDS_PREFIX.length(), end);
            for (String name : names.split(",")) {
                if (!shape.columns().contains(name.trim())) {
                    problems.add("option '" + key + "' names column '" + name.trim() + "', which does not exist; "
                            + "columns are " + shape.columns());
                }
            }
        }
    }

    private void retention() {
        Integer min = parsed(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MIN);
        Integer max = parsed(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MAX);
        if (min != null && max != null && min > max) {
            problems.add("option 'snapshot.num-retained.min' (" + min + ") is larger than 'snapshot.num-retained.max' ("
                    + max + ")");
        }
        Integer changelogMin = parsed(SnapshotExpireOptions.CHANGELOG_NUM_RETAINED_MIN);
        if (changelogMin != null && min != null && options.contains(SnapshotExpireOptions.CHANGELOG_NUM_RETAINED_MIN)
                && changelogMin < min) {
            problems.add("option 'changelog.num-retained.min' (" + changelogMin + ") is smaller than "
                    + "'snapshot.num-retained.min' (" + min + "); changelogs are kept at least as long as snapshots");
        }
        Integer changelogMax = parsed(SnapshotExpireOptions.CHANGELOG_NUM_RETAINED_MAX);
        if (changelogMin != null && changelogMax != null && changelogMin > changelogMax
                && options.contains(SnapshotExpireOptions.CHANGELOG_NUM_RETAINED_MIN)
                && options.contains(SnapshotExpireOptions.CHANGELOG_NUM_RETAINED_MAX)) {
            problems.add("option 'changelog.num-retained.min' (" + changelogMin + ") is larger than "
                    + "'changelog.num-retained.max' (" + changelogMax + ")");
        }
        Duration snapshotTime = parsed(SnapshotExpireOptions.SNAPSHOT_TIME_RETAINED);
        Duration changelogTime = parsed(SnapshotExpireOptions.CHANGELOG_TIME_RETAINED);
        if (snapshotTime != null && changelogTime != null && changelogTime.compareTo(snapshotTime) < 0) {
            problems.add("option 'changelog.time-retained' (" + ConfigOption.formatValue(changelogTime)
                    + ") is shorter than 'snapshot.time-retained' (" + ConfigOption.formatValue(snapshotTime)
                    + "); changelogs are kept at least as long as snapshots");
        }
    }

    /**
     * Which scan options each scan mode cannot combine with (Paimon's rules). That a mode's own option is
     * set is checked when the read is planned: the Java API may give it on the read builder instead.
     */
    private void startupMode() {
        StartupMode configured = parsed(ScanOptions.SCAN_MODE);
        if (configured == null) {
            return;
        }
        boolean timestamp = options.contains(ScanOptions.SCAN_TIMESTAMP_MILLIS) || options.contains(ScanOptions.SCAN_TIMESTAMP);
        StartupMode mode = resolve(configured, timestamp);
        String modeText = "'scan.mode' = '" + configured + "'" + (configured == mode ? "" : " (here " + mode + ")");
        List<ScanKey> all = List.of(ScanKey.TIMESTAMP, ScanKey.SNAPSHOT_ID, ScanKey.TAG_NAME,
                ScanKey.FILE_CREATION_TIME, ScanKey.INCREMENTAL_BETWEEN, ScanKey.INCREMENTAL_BETWEEN_TIMESTAMP,
                ScanKey.INCREMENTAL_TO_AUTO_TAG);
        List<ScanKey> allowed;
        switch (mode) {
            case FROM_TIMESTAMP:
                allowed = List.of(ScanKey.TIMESTAMP);
                break;
            case FROM_SNAPSHOT:
                allowed = List.of(ScanKey.SNAPSHOT_ID, ScanKey.TAG_NAME);
                atMostOne(modeText, ScanKey.SNAPSHOT_ID, ScanKey.TAG_NAME);
                break;
            case FROM_SNAPSHOT_FULL:
                allowed = List.of(ScanKey.SNAPSHOT_ID);
                break;
            case INCREMENTAL:
                allowed = List.of(ScanKey.INCREMENTAL_BETWEEN, ScanKey.INCREMENTAL_BETWEEN_TIMESTAMP,
                        ScanKey.INCREMENTAL_TO_AUTO_TAG);
                exactlyOne(modeText, allowed);
                break;
            case FROM_FILE_CREATION_TIME:
                allowed = List.of(ScanKey.FILE_CREATION_TIME);
                break;
            default:
                allowed = List.of();
                break;
        }
        for (ScanKey key : all) {
            if (!allowed.contains(key) && isSet(key)) {
                problems.add("option '" + key.text + "' cannot be combined with " + modeText + "; remove one of them");
            }
        }
    }

    /** Paimon's resolution of {@code scan.mode} = default (and the alias full). */
    private StartupMode resolve(StartupMode configured, boolean timestamp) {
        if (configured == StartupMode.FULL) {
            return StartupMode.LATEST_FULL;
        }
        if (configured != StartupMode.DEFAULT) {
            return configured;
        }
        if (timestamp) {
            return StartupMode.FROM_TIMESTAMP;
        } else if (isSet(ScanKey.SNAPSHOT_ID) || isSet(ScanKey.TAG_NAME)) {
            return StartupMode.FROM_SNAPSHOT;
        } else if (isSet(ScanKey.INCREMENTAL_BETWEEN) || isSet(ScanKey.INCREMENTAL_BETWEEN_TIMESTAMP)
                || isSet(ScanKey.INCREMENTAL_TO_AUTO_TAG)) {
            return StartupMode.INCREMENTAL;
        } else if (isSet(ScanKey.FILE_CREATION_TIME)) {
            return StartupMode.FROM_FILE_CREATION_TIME;
        } else if (options.contains(ScanOptions.SCAN_CREATION_TIME_MILLIS)) {
            return StartupMode.FROM_CREATION_TIMESTAMP;
        }
        return StartupMode.LATEST_FULL;
    }

    /** Paimon's rule for scan mode incremental: exactly one of the keys says which changes to read. */
    private void exactlyOne(String modeText, List<ScanKey> keys) {
        long set = keys.stream().filter(this::isSet).count();
        if (set != 1) {
            String names = keys.stream().map(k -> "'" + k.text + "'")
                    .collect(java.util.stream.Collectors.joining(", "));
            problems.add(modeText + " needs exactly one of the options " + names + " (it has " + set
                    + "); set the one that names the changes to read");
        }
    }

    private void atMostOne(String modeText, ScanKey a, ScanKey b) {
        if (isSet(a) && isSet(b)) {
            problems.add(modeText + " takes only one of the options '" + a.text + "' and '" + b.text + "'");
        }
    }

    private boolean isSet(ScanKey key) {
        for (ConfigOption<?> option : key.options) {
            if (options.contains(option)) {
                return true;
            }
        }
        return false;
    }

    /** The parsed value, or null when unset or unparsable (reported elsewhere). */
    private <T> T parsed(ConfigOption<T> option) {
        try {
            return options.get(option);
        } catch (IllegalArgumentException invalid) {
            return null;
        }
    }

    /** The scan options that select where a read starts. */
    private enum ScanKey {
        TIMESTAMP(ScanOptions.SCAN_TIMESTAMP_MILLIS, ScanOptions.SCAN_TIMESTAMP),
        SNAPSHOT_ID(ScanOptions.SCAN_SNAPSHOT_ID),
        TAG_NAME(ScanOptions.SCAN_TAG_NAME),
        FILE_CREATION_TIME(ScanOptions.SCAN_FILE_CREATION_TIME_MILLIS),
        INCREMENTAL_BETWEEN(ScanOptions.INCREMENTAL_BETWEEN),
        INCREMENTAL_BETWEEN_TIMESTAMP(ScanOptions.INCREMENTAL_BETWEEN_TIMESTAMP),
        INCREMENTAL_TO_AUTO_TAG(ScanOptions.INCREMENTAL_TO_AUTO_TAG);

        /** The keys as a message names them: {@code a' / 'b} inside the message's quotes. */
        private final String text;
        private final List<ConfigOption<?>> options;

        ScanKey(ConfigOption<?>... options) {
            this.options = List.of(options);
            this.text = this.options.stream().map(ConfigOption::key).collect(java.util.stream.Collectors.joining("' / '"));
        }
    }
}
