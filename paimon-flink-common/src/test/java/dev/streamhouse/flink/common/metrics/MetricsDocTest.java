package dev.streamhouse.flink.common.metrics;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The metric list of {@code docs/operations.md} (between {@code <!-- metrics:begin -->} and
 * {@code <!-- metrics:end -->}) is exactly what the {@link TableMetric} declarations render to. After
 * adding or changing a metric, regenerate that section with {@value #REGENERATE}.
 */
class MetricsDocTest {
    static final String REGENERATE = "mvn -q -pl paimon-flink-common -am test -Dtest=MetricsDocTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dmetrics.docs.regenerate=true";
    private static final Path DOC = Path.of("..", "docs", "operations.md");

    @Test
    void theMetricListInTheDocsMatchesTheDeclarations() throws Exception {
        assertThat(DOC).as("docs/operations.md exists").exists();
        String page = Files.readString(DOC, StandardCharsets.UTF_8);
        String rendered = MetricDocs.section(REGENERATE);
        if (Boolean.getBoolean("metrics.docs.regenerate")) {
            page = MetricDocs.withSection(page, rendered);
            Files.writeString(DOC, page, StandardCharsets.UTF_8);
        }
        assertThat(MetricDocs.sectionOf(page))
                .as("docs/operations.md's metric list (between the lines " + MetricDocs.BEGIN + " and "
                        + MetricDocs.END + ") is out of date; regenerate it with: " + REGENERATE)
                .isEqualTo(rendered);
    }

    @Test
    void everyMetricIsListedWithItsKindAndWhetherPaimonHasIt() {
        String rendered = MetricDocs.section(REGENERATE);
        for (TableMetric metric : TableMetric.values()) {
            assertThat(rendered).contains("| `" + metric.metricName() + "` | "
                    + metric.kind().name().toLowerCase(java.util.Locale.ROOT) + " | "
                    + (MetricDocs.inPaimon(metric) ? "yes" : "no") + " | ");
        }
        assertThat(MetricDocs.inPaimon(TableMetric.LAST_COMMIT_DURATION)).isTrue();
        assertThat(MetricDocs.inPaimon(TableMetric.LAST_COMMITTED_SNAPSHOT_ID)).isFalse();
        assertThat(rendered).contains("| `lastCommittedSnapshotId` | gauge | no | Id of the last snapshot this "
                + "committer made (-1 before its first). |");
    }

    @Test
    void theSectionIsReplacedBetweenTheMarkersOnly() {
        String page = "# P\n\nbefore\n" + MetricDocs.BEGIN + "\nold\n" + MetricDocs.END + "\nafter\n";
        assertThat(MetricDocs.withSection(page, "new\n"))
                .isEqualTo("# P\n\nbefore\n" + MetricDocs.BEGIN + "\nnew\n" + MetricDocs.END + "\nafter\n");
        assertThat(MetricDocs.sectionOf(page)).isEqualTo("old\n");
        assertThatThrownBy(() -> MetricDocs.withSection("# P\n", "new\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(MetricDocs.BEGIN);
    }
}
