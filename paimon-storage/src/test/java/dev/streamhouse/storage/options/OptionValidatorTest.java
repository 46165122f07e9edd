package dev.streamhouse.storage.options;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@link OptionValidator} accepts, warns about and refuses, with the messages users see. */
class OptionValidatorTest {
    private static final TableShape PK = new TableShape(List.of("id", "v", "ts"), List.of("id"), List.of());
    private static final TableShape APPEND = new TableShape(List.of("id", "v", "dt"), List.of(), List.of("dt"));

    private final OptionValidator validator = OptionValidator.instance();

    private List<String> create(TableShape shape, String... keyValues) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            options.put(keyValues[i], keyValues[i + 1]);
        }
        return validator.checkNewTable("Table db.t", shape, options);
    }

    @Test
    void invalidValuesAreRefusedNamingOptionValueAndWhatIsExpected() {
        assertThatThrownBy(() -> create(PK, "merge-engine", "nope"))
                .isInstanceOf(InvalidOptionsException.class)
                .hasMessage("Invalid value 'nope' for option 'merge-engine' (expected one of deduplicate, "
                        + "partial-update, aggregation, first-row): no such value");
        assertThatThrownBy(() -> create(PK, "write-buffer-size", "-1"))
                .hasMessageStartingWith("Invalid value '-1' for option 'write-buffer-size' (expected memory size)");
        assertThatThrownBy(() -> create(PK, "write-buffer-size", "0 mb"))
                .hasMessage("Invalid value '0 mb' for option 'write-buffer-size': it must be a positive size, e.g. '64 mb'");
        assertThatThrownBy(() -> create(PK, "bucket", "0")).hasMessageContaining("positive bucket count");
        assertThatThrownBy(() -> create(PK, "continuous.discovery-interval", "soon"))
                .hasMessageContaining("'continuous.discovery-interval' (expected duration)");
        assertThatThrownBy(() -> create(PK, "metadata.stats-mode", "truncate(x)"))
                .hasMessageContaining("none, counts, full or truncate(N)");
    }

    @Test
    void featuresNotImplementedAreRefusedSayingSo() {
        assertThatThrownBy(() -> create(PK, "scan.fallback-branch", "b1"))
                .hasMessageContaining("option 'scan.fallback-branch' is not supported yet");
        assertThatThrownBy(() -> create(PK, "fields.v.default-value", "1"))
                .hasMessageContaining("option 'fields.v.default-value' is not supported yet");
        assertThatThrownBy(() -> create(PK, "bucket", "-2")).hasMessageContaining("postpone buckets");
    }

    @Test
    void optionsOfNewerPaimonsThatChangeReadsAreRefusedNamingTheRelease() {
        assertThatThrownBy(() -> create(PK, "sequence.snapshot-ordering", "true"))
                .isInstanceOf(InvalidOptionsException.class)
                .hasMessageContaining("option 'sequence.snapshot-ordering' = 'true' is not supported (added in "
                        + "Apache Paimon 2.0; merging orders records by the snapshot that committed them");
        assertThatThrownBy(() -> create(PK, "scan.fallback-delta-branch", "delta"))
                .hasMessageContaining("(added in Apache Paimon 1.4;");
        assertThatThrownBy(() -> validator.checkDynamicOptions("Table db.t", PK, Map.of(),
                Map.of("deletion-vectors.merge-on-read", "true")))
                .hasMessageContaining("option 'deletion-vectors.merge-on-read' = 'true' is not supported");
        assertThat(create(PK, "postpone.merge-on-read", "false"))
                .containsExactly("unknown option 'postpone.merge-on-read' is kept but nothing reads it");
    }

    @Test
    void deletionVectorsAreRefusedExactlyWherePaimonRefusesThemAndOnAppendTables() {
        assertThat(create(PK, "deletion-vectors.enabled", "true")).isEmpty();
        assertThat(create(PK, "deletion-vectors.enabled", "true", "changelog-producer", "lookup",
                "merge-engine", "partial-update", "deletion-vectors.bitmap64", "true")).isEmpty();
        assertThat(create(PK, "deletion-vectors.enabled", "true", "changelog-producer", "input",
                "merge-engine", "aggregation")).isEmpty();
        assertThatThrownBy(() -> create(PK, "deletion-vectors.enabled", "true", "changelog-producer", "full-compaction"))
                .hasMessageContaining("option 'deletion-vectors.enabled' = 'true' cannot be used with "
                        + "'changelog-producer' = 'full-compaction'");
        assertThatThrownBy(() -> create(PK, "deletion-vectors.enabled", "true", "merge-engine", "first-row"))
                .hasMessageContaining("option 'deletion-vectors.enabled' = 'true' cannot be used with 'merge-engine' = "
                        + "'first-row'");
        assertThatThrownBy(() -> create(APPEND, "deletion-vectors.enabled", "true"))
                .hasMessageContaining("option 'deletion-vectors.enabled' = 'true' on a table without a primary key is "
                        + "not supported yet");
        assertThat(create(APPEND, "deletion-vectors.enabled", "false")).isEmpty();
    }

    @Test
    void everyProblemIsListedAtOnce() {
        assertThatThrownBy(() -> create(PK, "scan.fallback-branch", "b1", "write-buffer-size", "-1", "bucket", "0"))
                .isInstanceOfSatisfying(InvalidOptionsException.class, e -> assertThat(e.problems()).hasSize(3));
    }

    @Test
    void optionsWithoutEffectAndUnknownKeysAreAcceptedWithAWarningNamingThem() {
        assertThat(create(PK, "streaming.read.snapshot.delay", "1 min"))
                .containsExactly("option 'streaming.read.snapshot.delay' = '1 min' has no effect yet: streaming "
                        + "reads read each snapshot as soon as they discover it");
        assertThat(create(PK, "changelog.num-retained.max", "20")).isEmpty();
        assertThat(create(PK, "snapshot.num-retained.max", "20")).isEmpty();
        assertThat(create(PK, "snapshot.num-retain.max", "20"))
                .containsExactly("unknown option 'snapshot.num-retain.max' is kept but nothing reads it; did you mean "
                        + "'snapshot.num-retained.max'?");
        assertThat(create(PK, "my.own.key", "x"))
                .containsExactly("unknown option 'my.own.key' is kept but nothing reads it");
        assertThat(create(PK, "write-buffer-size", "64 mb", "sequence.field", "ts")).isEmpty();
    }

    @Test
    void combinationsPaimonRefusesAreRefused() {
        assertThatThrownBy(() -> create(APPEND, "changelog-producer", "input"))
                .hasMessageContaining("'changelog-producer' = 'input' needs a primary key");
        assertThatThrownBy(() -> create(PK, "sequence.field", "nope"))
                .hasMessageContaining("'sequence.field' names column 'nope', which does not exist");
        assertThatThrownBy(() -> create(PK, "fields.nope.stats-mode", "full"))
                .hasMessageContaining("'fields.nope.stats-mode' names column 'nope'");
        assertThatThrownBy(() -> create(PK, "snapshot.num-retained.min", "20", "snapshot.num-retained.max", "5"))
                .hasMessageContaining("'snapshot.num-retained.min' (20) is larger than 'snapshot.num-retained.max' (5)");
        assertThatThrownBy(() -> create(PK, "changelog.num-retained.min", "30", "changelog.num-retained.max", "20"))
                .hasMessageContaining("'changelog.num-retained.min' (30) is larger than 'changelog.num-retained.max' (20)");
        assertThatThrownBy(() -> create(PK, "scan.mode", "latest", "scan.snapshot-id", "3"))
                .hasMessage("option 'scan.snapshot-id' cannot be combined with 'scan.mode' = 'latest'; remove one of "
                        + "them");
        assertThatThrownBy(() -> create(APPEND, "bucket", "-1", "full-compaction.delta-commits", "2"))
                .hasMessageContaining("'full-compaction.delta-commits' needs a primary key or a fixed 'bucket'");
    }

    @Test
    void scanModeIncrementalTakesExactlyOneRangeOptionAsInPaimon() {
        assertThat(create(PK, "scan.mode", "incremental", "incremental-between", "1,2")).isEmpty();
        assertThat(create(PK, "scan.mode", "incremental", "incremental-between-timestamp", "1,2")).isEmpty();
        assertThat(create(PK, "scan.mode", "incremental", "incremental-to-auto-tag", "2024-01-01")).isEmpty();
        assertThat(create(PK, "incremental-to-auto-tag", "2024-01-01")).as("default resolves to incremental").isEmpty();
        assertThatThrownBy(() -> create(PK, "scan.mode", "incremental"))
                .hasMessage("'scan.mode' = 'incremental' needs exactly one of the options 'incremental-between', "
                        + "'incremental-between-timestamp', 'incremental-to-auto-tag' (it has 0); set the one that "
                        + "names the changes to read");
        assertThatThrownBy(() -> create(PK, "scan.mode", "incremental", "incremental-between", "1,2",
                "incremental-to-auto-tag", "2024-01-01")).hasMessageContaining("(it has 2)");
        assertThatThrownBy(() -> create(PK, "scan.mode", "incremental", "incremental-between", "1,2",
                "scan.snapshot-id", "1"))
                .hasMessage("option 'scan.snapshot-id' cannot be combined with 'scan.mode' = 'incremental'; remove "
                        + "one of them");
        assertThatThrownBy(() -> create(PK, "scan.mode", "latest", "incremental-to-auto-tag", "2024-01-01"))
                .hasMessage("option 'incremental-to-auto-tag' cannot be combined with 'scan.mode' = 'latest'; remove "
                        + "one of them");
    }

    @Test
    void mergeEngineCombinationsPaimonRefusesAreRefused() {
        assertThatThrownBy(() -> create(PK, "merge-engine", "first-row", "sequence.field", "ts"))
                .hasMessageContaining("option 'sequence.field' cannot be used with 'merge-engine' = 'first-row'");
        assertThatThrownBy(() -> create(PK, "merge-engine", "first-row", "changelog-producer", "input"))
                .hasMessageContaining("'changelog-producer' = 'input' cannot be used with 'merge-engine' = "
                        + "'first-row', which supports only 'none' and 'lookup'");
        assertThatThrownBy(() -> create(PK, "merge-engine", "aggregation", "sequence.field", "ts",
                "fields.ts.aggregate-function", "max"))
                .hasMessageContaining("option 'fields.ts.aggregate-function' aggregates column 'ts', which is a "
                        + "'sequence.field'");
        assertThatThrownBy(() -> create(PK, "merge-engine", "partial-update", "fields.ts.sequence-group", "v",
                "fields.ts.aggregate-function", "max"))
                .hasMessageContaining("which is the sequence column of option 'fields.ts.sequence-group'");
        assertThatThrownBy(() -> create(PK, "merge-engine", "partial-update", "fields.ts.sequence-group", "nope"))
                .hasMessageContaining("names column 'nope', which does not exist");
        assertThat(create(PK, "merge-engine", "partial-update", "fields.ts.sequence-group", "v",
                "fields.v.aggregate-function", "sum")).isEmpty();
    }

    @Test
    void lookupChangelogOptionsAreCheckedAtCreate() {
        assertThat(create(PK, "changelog-producer", "lookup", "changelog-producer.row-deduplicate", "true",
                "changelog-producer.row-deduplicate-ignore-fields", "ts", "lookup-wait", "false",
                "lookup-compact", "GENTLE", "lookup-compact.max-interval", "4")).isEmpty();
        assertThatThrownBy(() -> create(PK, "changelog-producer", "lookup",
                "changelog-producer.row-deduplicate-ignore-fields", "ts,nope"))
                .hasMessageContaining("option 'changelog-producer.row-deduplicate-ignore-fields' names column 'nope', "
                        + "which does not exist");
        assertThatThrownBy(() -> create(PK, "lookup-compact", "SOMETIMES")).hasMessageContaining("lookup-compact");
        assertThatThrownBy(() -> create(PK, "lookup-compact.max-interval", "0"))
                .hasMessageContaining("lookup-compact.max-interval");
    }

    @Test
    void credentialsAreNeverStoredAndNeverShown() {
        assertThatThrownBy(() -> create(PK, "s3.secret-key", "TOPSECRET"))
                .hasMessageContaining("option 's3.secret-key' holds a credential")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("TOPSECRET"));
        // A catalog option without effect yet is warned about with its value masked.
        Map<String, String> catalog = Map.of("warehouse", "/w", "oss.access-key-secret", "TOPSECRET");
        assertThat(validator.checkCatalogOptions("Catalog", catalog)).singleElement().asString()
                .contains("'oss.access-key-secret' = '******'").doesNotContain("TOPSECRET");
        assertThat(new Options(Map.of("s3.secret-key", "TOPSECRET")).toString()).contains("s3.secret-key=******")
                .doesNotContain("TOPSECRET");
    }

    @Test
    void dynamicOptionsMayNotChangeImmutableOptions() {
        Map<String, String> stored = Map.of("merge-engine", "deduplicate", "bucket", "2");
        assertThatThrownBy(() -> validator.checkDynamicOptions("Table db.t", PK, stored, Map.of("ignore-delete", "true")))
                .hasMessage("option 'ignore-delete' cannot be changed by dynamic options: it is fixed when the table "
                        + "is created");
        assertThat(validator.checkDynamicOptions("Table db.t", PK, stored,
                Map.of("merge-engine", "DEDUPLICATE", "scan.snapshot-id", "1"))).isEmpty();
    }

    @Test
    void catalogOptionsAreCheckedAndTableDefaultsAsTableOptions() {
        assertThatThrownBy(() -> validator.checkCatalogOptions("Catalog", Map.of("metastore", "rest")))
                .hasMessageContaining("option 'metastore' is not supported yet (set to 'rest')");
        assertThatThrownBy(() -> validator.checkCatalogOptions("Catalog", Map.of("location-in-properties", "true")))
                .hasMessageContaining("option 'location-in-properties' is not supported yet");
        assertThatThrownBy(() -> validator.checkCatalogOptions("Catalog",
                Map.of("table-default.scan.fallback-branch", "b1")))
                .hasMessageContaining("option 'table-default.scan.fallback-branch' is not supported yet");
        assertThatThrownBy(() -> validator.checkCatalogOptions("Catalog", Map.of("table-default.bucket", "x")))
                .hasMessageContaining("Invalid value 'x' for option 'table-default.bucket'");
        assertThat(validator.checkCatalogOptions("Catalog", Map.of("warehouse", "/w", "default-database", "d",
                "table-default.bucket", "4"))).isEmpty();
    }

    @Test
    void fallbackKeysAreReadWhenTheKeyIsNotSet() {
        assertThat(new Options(Map.of("deduplicate.ignore-delete", "true")).get(MergeTreeOptions.IGNORE_DELETE)).isTrue();
        assertThat(new Options(Map.of("deduplicate.ignore-delete", "true", "ignore-delete", "false"))
                .get(MergeTreeOptions.IGNORE_DELETE)).isFalse();
    }
}
