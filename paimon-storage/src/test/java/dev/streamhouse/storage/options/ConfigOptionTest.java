package dev.streamhouse.storage.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Typed options: defaults, parsing, and errors that name the option. */
class ConfigOptionTest {

    enum MergeEngine {
        DEDUPLICATE,
        PARTIAL_UPDATE,
        FIRST_ROW
    }

    static final ConfigOption<MergeEngine> MERGE_ENGINE =
            ConfigOption.key("merge-engine").enumType(MergeEngine.class).defaultValue(MergeEngine.DEDUPLICATE);
    static final ConfigOption<Long> SOME_LONG = ConfigOption.key("some.long").longType().noDefaultValue();
    static final ConfigOption<Double> SOME_DOUBLE = ConfigOption.key("some.double").doubleType().defaultValue(0.5);

    @Test
    void absentOptionsGiveTheirDefault() {
        Options options = new Options();

        assertThat(options.get(BucketOptions.BUCKET)).isEqualTo(-1);
        assertThat(options.get(ManifestOptions.MANIFEST_TARGET_FILE_SIZE)).isEqualTo(MemorySize.ofMebiBytes(8));
        assertThat(options.get(CommitOptions.COMMIT_MIN_RETRY_WAIT)).isEqualTo(Duration.ofMillis(10));
        assertThat(options.get(SOME_LONG)).isNull();
        assertThat(options.getOptional(SOME_LONG)).isEmpty();
        assertThat(options.contains(SOME_LONG)).isFalse();
    }

    @Test
    void presentOptionsAreParsed() {
        Options options = Options.of(
                "bucket", " 4 ",
                "target-file-size", "256 mb",
                "commit.max-retry-wait", "30 s",
                "partition.legacy-name", "FALSE",
                "merge-engine", "partial-update",
                "some.long", "10000000000",
                "some.double", "1.25");

        assertThat(options.get(BucketOptions.BUCKET)).isEqualTo(4);
        assertThat(options.get(FileFormatOptions.TARGET_FILE_SIZE)).isEqualTo(MemorySize.ofMebiBytes(256));
        assertThat(options.get(CommitOptions.COMMIT_MAX_RETRY_WAIT)).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.get(PartitionOptions.PARTITION_LEGACY_NAME)).isFalse();
        assertThat(options.get(MERGE_ENGINE)).isEqualTo(MergeEngine.PARTIAL_UPDATE);
        assertThat(options.get(SOME_LONG)).isEqualTo(10_000_000_000L);
        assertThat(options.get(SOME_DOUBLE)).isEqualTo(1.25);
    }

    @Test
    void durationsAcceptTheUsualUnits() {
        ConfigOption<Duration> wait = CommitOptions.COMMIT_MIN_RETRY_WAIT;

        assertThat(wait.parse("15")).isEqualTo(Duration.ofMillis(15));
        assertThat(wait.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(wait.parse("10 s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(wait.parse("1 min")).isEqualTo(Duration.ofMinutes(1));
        assertThat(wait.parse("2 h")).isEqualTo(Duration.ofHours(2));
        assertThat(wait.parse("7 d")).isEqualTo(Duration.ofDays(7));
    }

    @Test
    void invalidIntNamesTheOptionTheValueAndTheType() {
        Options options = Options.of("bucket", "four");

        assertThatThrownBy(() -> options.get(BucketOptions.BUCKET))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bucket'")
                .hasMessageContaining("'four'")
                .hasMessageContaining("int");
    }

    @Test
    void invalidValuesOfEveryTypeNameTheOption() {
        Options options = Options.of(
                "partition.legacy-name", "yes",
                "target-file-size", "12 parsecs",
                "commit.max-retry-wait", "ten seconds",
                "merge-engine", "last-row",
                "some.long", "1e3",
                "some.double", "half");

        assertThatThrownBy(() -> options.get(PartitionOptions.PARTITION_LEGACY_NAME))
                .hasMessageContaining("'partition.legacy-name'").hasMessageContaining("boolean");
        assertThatThrownBy(() -> options.get(FileFormatOptions.TARGET_FILE_SIZE))
                .hasMessageContaining("'target-file-size'").hasMessageContaining("unknown unit 'parsecs'");
        assertThatThrownBy(() -> options.get(CommitOptions.COMMIT_MAX_RETRY_WAIT))
                .hasMessageContaining("'commit.max-retry-wait'").hasMessageContaining("'ten seconds'");
        assertThatThrownBy(() -> options.get(MERGE_ENGINE))
                .hasMessageContaining("'merge-engine'").hasMessageContaining("FIRST_ROW");
        assertThatThrownBy(() -> options.get(SOME_LONG)).hasMessageContaining("'some.long'");
        assertThatThrownBy(() -> options.get(SOME_DOUBLE)).hasMessageContaining("'some.double'");
    }

    @Test
    void tooLargeMemorySizeNamesTheOption() {
        Options options = Options.of("target-file-size", "9999999 tb");

        assertThatThrownBy(() -> options.get(FileFormatOptions.TARGET_FILE_SIZE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'target-file-size'");
    }

    @Test
    void typedValuesSetAreReadBack() {
        Options options = new Options()
                .set(BucketOptions.BUCKET, 8)
                .set(FileFormatOptions.TARGET_FILE_SIZE, MemorySize.ofMebiBytes(64))
                .set(CommitOptions.COMMIT_MAX_RETRY_WAIT, Duration.ofSeconds(3))
                .set(CommitOptions.COMMIT_MIN_RETRY_WAIT, Duration.ofMillis(1500))
                .set(PartitionOptions.PARTITION_LEGACY_NAME, true)
                .set(MERGE_ENGINE, MergeEngine.FIRST_ROW)
                .set(SOME_DOUBLE, 0.1);

        assertThat(options.get(BucketOptions.BUCKET)).isEqualTo(8);
        assertThat(options.get(FileFormatOptions.TARGET_FILE_SIZE)).isEqualTo(MemorySize.ofMebiBytes(64));
        assertThat(options.get(CommitOptions.COMMIT_MAX_RETRY_WAIT)).isEqualTo(Duration.ofSeconds(3));
        assertThat(options.get(CommitOptions.COMMIT_MIN_RETRY_WAIT)).isEqualTo(Duration.ofMillis(1500));
        assertThat(options.get(PartitionOptions.PARTITION_LEGACY_NAME)).isTrue();
        assertThat(options.get(MERGE_ENGINE)).isEqualTo(MergeEngine.FIRST_ROW);
        assertThat(options.get(SOME_DOUBLE)).isEqualTo(0.1);
        assertThat(options.get("commit.max-retry-wait")).isEqualTo("3 s");
        assertThat(options.get("commit.min-retry-wait")).isEqualTo("1500 ms");
        assertThat(options.get("target-file-size")).isEqualTo("64 mb");
    }

    @Test
    void durationsAreFormattedInTheLargestExactUnitAndParseBack() {
        assertThat(DurationParser.format(Duration.ZERO)).isEqualTo("0 ms");
        assertThat(DurationParser.format(Duration.ofDays(2))).isEqualTo("2 d");
        assertThat(DurationParser.format(Duration.ofMinutes(90))).isEqualTo("90 min");
        assertThat(DurationParser.format(Duration.ofMillis(61_001))).isEqualTo("61001 ms");
        for (Duration d : List.of(Duration.ZERO, Duration.ofMillis(10), Duration.ofSeconds(59),
                Duration.ofMinutes(61), Duration.ofHours(25), Duration.ofDays(7), Duration.ofMillis(3_600_001))) {
            assertThat(DurationParser.parse(DurationParser.format(d))).as(d.toString()).isEqualTo(d);
        }
    }

    @Test
    void defaultsCannotBeNull() {
        assertThatThrownBy(() -> ConfigOption.key("x").intType().defaultValue(null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void optionsAreEqualByKeyAndKeepTheirDescription() {
        assertThat(BucketOptions.BUCKET).isEqualTo(ConfigOption.key("bucket").intType().defaultValue(3));
        assertThat(BucketOptions.BUCKET.description()).isNotBlank();
        assertThat(BucketOptions.BUCKET.toString()).isEqualTo("bucket");
    }

    @Test
    void optionsSurviveJavaSerializationWithTheirParser() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(CommitOptions.COMMIT_MAX_RETRY_WAIT);
            out.writeObject(Options.of("bucket", "2"));
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            @SuppressWarnings("unchecked")
            ConfigOption<Duration> option = (ConfigOption<Duration>) in.readObject();
            Options options = (Options) in.readObject();

            assertThat(option.parse("2 min")).isEqualTo(Duration.ofMinutes(2));
            assertThat(options.get(BucketOptions.BUCKET)).isEqualTo(2);
        }
    }
}
