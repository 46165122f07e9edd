package dev.streamhouse.bench;

import java.util.HashMap;
import java.util.Map;

/** A parsed {@code RESULT} or {@code UNSUPPORTED} line (see {@link Report}). */
final class ResultLine {
    final String workload;
    final String impl;
    final String metric;
    final double value;
    final String unit;
    final String reason;

    private ResultLine(Map<String, String> fields) {
        workload = fields.getOrDefault("workload", "?");
        impl = fields.getOrDefault("impl", "?");
        metric = fields.getOrDefault("metric", "?");
        value = Double.parseDouble(fields.getOrDefault("value", "NaN"));
        unit = fields.getOrDefault("unit", "");
        reason = fields.get("reason");
    }

    static ResultLine parse(String line) {
        Map<String, String> fields = new HashMap<>();
        int reasonAt = line.indexOf(" reason=");
        String head = reasonAt < 0 ? line : line.substring(0, reasonAt);
        if (reasonAt >= 0) {
            fields.put("reason", line.substring(reasonAt + " reason=".length()));
        }
        for (String token : head.split(" ")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                fields.put(token.substring(0, eq), token.substring(eq + 1));
            }
        }
        return new ResultLine(fields);
    }
}
