package dev.streamhouse.flink.common.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders every {@link TableMetric} as Markdown: a table per {@link TableMetric.Group}, in declaration
 * order (metric name, kind, whether Apache Paimon has it, description). The project's
 * {@code docs/operations.md} holds this text between {@link #BEGIN} and {@link #END}; a test compares the
 * two, so the page cannot drift from the declarations.
 *
 * <p>Whether Paimon has a metric is read from its description: a metric of ours says "not in Paimon"
 * there (the declarations' convention). The generated description drops a closing "; not in Paimon."
 * since the table's column says it.
 */
public final class MetricDocs {
    /** The line before the generated section. */
    public static final String BEGIN = "<!-- metrics:begin -->";
    /** The line after the generated section. */
    public static final String END = "<!-- metrics:end -->";

    private static final String NOT_IN_PAIMON = "not in Paimon";
    private static final String NOT_IN_PAIMON_SUFFIX = "; " + NOT_IN_PAIMON + ".";

    private MetricDocs() {}

    /** The generated section, without the markers, ending with a line break. */
    public static String section(String regenerateCommand) {
        StringBuilder out = new StringBuilder();
        out.append("<!-- Generated from TableMetric (paimon-flink-common); do not edit by hand. Regenerate with:\n")
                .append("     ").append(regenerateCommand).append(" -->\n");
        for (TableMetric.Group group : TableMetric.Group.values()) {
            List<TableMetric> metrics = new ArrayList<>();
            for (TableMetric metric : TableMetric.values()) {
                if (metric.group() == group) {
                    metrics.add(metric);
                }
            }
            out.append("\n#### `").append(group.groupName()).append("`\n\n");
            if (metrics.isEmpty()) {
                out.append("No metrics in this group yet.\n");
                continue;
            }
            out.append("Full name: `<operator scope>.paimon.table.<table>.").append(group.groupName())
                    .append(".<metric>`.\n\n")
                    .append("| Metric | Kind | In Paimon | Description |\n")
                    .append("|---|---|---|---|\n");
            for (TableMetric metric : metrics) {
                out.append("| `").append(cell(metric.metricName())).append("` | ")
                        .append(metric.kind().name().toLowerCase(Locale.ROOT)).append(" | ")
                        .append(inPaimon(metric) ? "yes" : "no").append(" | ")
                        .append(cell(description(metric))).append(" |\n");
            }
        }
        return out.toString();
    }

    /**
     * {@code page} with the text between its {@link #BEGIN} and {@link #END} lines replaced by
     * {@code section}.
     *
     * @throws IllegalArgumentException if the page lacks either marker line, or has them out of order
     */
    public static String withSection(String page, String section) {
        int begin = page.indexOf(BEGIN + "\n");
        int end = page.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("Cannot place the metric list: the page needs a line " + BEGIN
                    + " followed, later, by a line " + END);
        }
        int from = begin + BEGIN.length() + 1;
        return page.substring(0, from) + section + page.substring(end);
    }

    /** The text between the page's markers, or null when it has none. */
    public static String sectionOf(String page) {
        int begin = page.indexOf(BEGIN + "\n");
        int end = page.indexOf(END);
        return begin < 0 || end < begin ? null : page.substring(begin + BEGIN.length() + 1, end);
    }

    static boolean inPaimon(TableMetric metric) {
        return !metric.description().contains(NOT_IN_PAIMON);
    }

    private static String description(TableMetric metric) {
        String d = metric.description();
        return d.endsWith(NOT_IN_PAIMON_SUFFIX) ? d.substring(0, d.length() - NOT_IN_PAIMON_SUFFIX.length()) + "." : d;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
