package dev.streamhouse.bench;

import java.util.Locale;

/**
 * The lines a benchmark JVM prints for {@link BenchRunner}: {@code RESULT} (a measured value),
 * {@code UNSUPPORTED} (a metric this implementation cannot produce, with why), {@code INFO}
 * (context for people, ignored by the runner). One line each, on stdout.
 */
final class Report {
    private final String workload;
    private final String impl;

    Report(String workload, String impl) {
        this.workload = workload;
        this.impl = impl;
    }

    void result(String metric, double value, String unit) {
        System.out.printf(
                Locale.ROOT,
                "RESULT workload=%s impl=%s metric=%s value=%.3f unit=%s%n",
                workload,
                impl,
                metric,
                value,
                unit);
        System.out.flush();
    }

    void unsupported(String metric, String reason) {
        System.out.printf(
                Locale.ROOT,
                "UNSUPPORTED workload=%s impl=%s metric=%s reason=%s%n",
                workload,
                impl,
                metric,
                oneLine(reason));
        System.out.flush();
    }

    void info(String format, Object... args) {
        System.out.println("INFO " + String.format(Locale.ROOT, format, args));
        System.out.flush();
    }

    static String oneLine(String text) {
        String s = text == null ? "" : text.replaceAll("\\s+", " ").trim();
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
