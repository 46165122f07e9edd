package dev.streamhouse.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The side-by-side table: per workload and metric the median of each implementation's runs, the
 * ratio ours / Paimon, and the peak RSS of each implementation's JVMs (the largest of its runs).
 * Times (units s, ms) are better when lower; everything else when higher.
 */
final class ResultTable {

    /** workload -> metric -> impl -> values. */
    private final Map<String, Map<String, Map<String, List<Double>>>> values = new LinkedHashMap<>();
    private final Map<String, String> units = new LinkedHashMap<>();
    /** workload -> impl -> peak RSS in KiB. */
    private final Map<String, Map<String, Long>> peakRss = new LinkedHashMap<>();
    /** workload -> notes (failures, unsupported metrics, skips). */
    private final Map<String, List<String>> notes = new LinkedHashMap<>();

    synchronized void add(ResultLine line) {
        values.computeIfAbsent(line.workload, w -> new LinkedHashMap<>())
                .computeIfAbsent(line.metric, m -> new LinkedHashMap<>())
                .computeIfAbsent(line.impl, i -> new ArrayList<>())
                .add(line.value);
        units.put(line.metric, line.unit);
    }

    synchronized void peakRss(String workload, String impl, long kib) {
        peakRss.computeIfAbsent(workload, w -> new LinkedHashMap<>()).merge(impl, kib, Math::max);
    }

    synchronized void failed(String workload, String impl, String reason) {
        values.computeIfAbsent(workload, w -> new LinkedHashMap<>());
        note(workload, display(impl) + " failed: " + reason);
    }

    synchronized void unsupported(String workload, String impl, String metric, String reason) {
        values.computeIfAbsent(workload, w -> new LinkedHashMap<>())
                .computeIfAbsent(metric, m -> new LinkedHashMap<>());
        note(workload, display(impl) + ": " + metric + " unsupported: " + reason);
    }

    synchronized void skipped(String workload, String reason) {
        values.computeIfAbsent(workload, w -> new LinkedHashMap<>());
        note(workload, "skipped: " + reason);
    }

    private void note(String workload, String text) {
        List<String> list = notes.computeIfAbsent(workload, w -> new ArrayList<>());
        if (!list.contains(text)) {
            list.add(text);
        }
    }

    synchronized String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("| workload | metric | ours | Apache Paimon 1.3.1 | ours / Paimon | peak RSS ours |"
                + " peak RSS Paimon | notes |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---|\n");
        for (Map.Entry<String, Map<String, Map<String, List<Double>>>> w : values.entrySet()) {
            String workload = w.getKey();
            String workloadNotes = String.join("; ", notes.getOrDefault(workload, List.of()));
            Map<String, Long> rss = peakRss.getOrDefault(workload, Map.of());
            boolean first = true;
            if (w.getValue().isEmpty()) {
                out.append(row(workload, "", "", "", "", "", "", workloadNotes));
                continue;
            }
            for (Map.Entry<String, Map<String, List<Double>>> m : w.getValue().entrySet()) {
                String metric = m.getKey();
                String unit = units.getOrDefault(metric, "");
                boolean lowerIsBetter = unit.equals("s") || unit.equals("ms");
                String label = unit.isEmpty()
                        ? metric
                        : metric + " (" + unit + (lowerIsBetter ? ", lower is better" : "") + ")";
                Map<String, List<Double>> byImpl = m.getValue();
                if ("parquet-limit".equals(workload)) {
                    Double v = median(byImpl.get("parquet"));
                    out.append(row(first ? workload : "", label,
                            v == null ? "" : format(v, unit) + " (parquet-mr)", "", "",
                            first ? mib(rss.get("parquet")) + " (parquet-mr)" : "", "",
                            first ? "plain parquet-mr, no Flink: the ceiling on this machine" : ""));
                    first = false;
                    continue;
                }
                if ("cdc-snapshot".equals(workload)) {
                    Double v = median(byImpl.get("ours"));
                    out.append(row(first ? workload : "", label, v == null ? "n/a" : format(v, unit),
                            "not involved", "", first ? mib(rss.get("ours")) : "", "",
                            first ? "mysql-cdc source (MariaDB) into a blackhole table, Paimon not involved: "
                                    + "Debezium's single-threaded snapshot vs the chunked one at parallelism 2; "
                                    + "rows/s from job submission, and from the first row (reading)"
                                    + (workloadNotes.isEmpty() ? "" : "; " + workloadNotes) : ""));
                    first = false;
                    continue;
                }
                Double ours = median(byImpl.get("ours"));
                Double paimon = median(byImpl.get("paimon"));
                String ratio = ours != null && paimon != null && paimon != 0
                        ? String.format(Locale.ROOT, "%.2f", ours / paimon) : "";
                out.append(row(
                        first ? workload : "",
                        label,
                        ours == null ? "n/a" : format(ours, unit),
                        paimon == null ? "n/a" : format(paimon, unit),
                        ratio,
                        first ? mib(rss.get("ours")) : "",
                        first ? mib(rss.get("paimon")) : "",
                        first ? workloadNotes : ""));
                first = false;
            }
        }
        return out.toString();
    }

    private static String row(String... cells) {
        StringBuilder b = new StringBuilder("|");
        for (String c : cells) {
            b.append(' ').append(c.replace("|", "\\|")).append(" |");
        }
        return b.append('\n').toString();
    }

    static Double median(List<Double> list) {
        if (list == null || list.isEmpty()) {
            return null;
        }
        List<Double> sorted = new ArrayList<>(list);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String format(double v, String unit) {
        switch (unit) {
            case "rows/s":
            case "probes/s":
            case "events/s":
            case "files":
                return String.format(Locale.ROOT, "%,.0f", v);
            case "ms":
                return String.format(Locale.ROOT, v < 100 ? "%.2f" : "%,.0f", v);
            case "s":
            case "ratio":
                return String.format(Locale.ROOT, "%.3f", v);
            default:
                return String.format(Locale.ROOT, "%,.1f", v);
        }
    }

    private static String mib(Long kib) {
        return kib == null || kib == 0 ? "" : String.format(Locale.ROOT, "%,d MB", kib / 1024);
    }

    private static String display(String impl) {
        return "paimon".equals(impl) ? "Paimon" : impl;
    }
}
