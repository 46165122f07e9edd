package dev.streamhouse.bench;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checkpoints of the job running on a MiniCluster, as its REST API reports them: polled every
 * {@link #POLL_MILLIS} while the job runs (the API keeps the last ten checkpoints, so polling twice a
 * second at one checkpoint a second sees every one). For each completed checkpoint it keeps the
 * end-to-end duration and, per job vertex, the slowest subtask's start delay (barrier travel,
 * including the time operators upstream spent before passing it on), alignment, synchronous and
 * asynchronous snapshot durations.
 */
final class CheckpointTimes implements AutoCloseable {
    static final long POLL_MILLIS = 500;

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final Thread poller;
    private volatile boolean stopped;

    /** End-to-end milliseconds per completed checkpoint id. */
    private final Map<Long, Long> endToEnd = new TreeMap<>();
    /** Per vertex name, per phase, the slowest subtask's milliseconds of each completed checkpoint. */
    private final Map<String, Map<String, List<Long>>> phases = new LinkedHashMap<>();
    private long failed;
    private String lastError = "none";

    CheckpointTimes(int restPort) {
        this.base = "http://127.0.0.1:" + restPort;
        this.poller = new Thread(this::pollLoop, "checkpoint-times");
        poller.setDaemon(true);
        poller.start();
    }

    private void pollLoop() {
        while (!stopped) {
            try {
                pollOnce();
            } catch (IOException | RuntimeException e) {
                synchronized (this) {
                    lastError = e.toString(); // no job yet, or the MiniCluster is gone
                }
            } catch (InterruptedException e) {
                return;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void pollOnce() throws IOException, InterruptedException {
        String job = null;
        for (JsonNode j : get("/jobs").path("jobs")) {
            if ("RUNNING".equals(j.path("status").asText())) {
                job = j.path("id").asText();
            }
        }
        if (job == null) {
            return;
        }
        Map<String, String> vertexNames = new LinkedHashMap<>();
        for (JsonNode v : get("/jobs/" + job).path("vertices")) {
            vertexNames.put(v.path("id").asText(), shortName(v.path("name").asText()));
        }
        JsonNode checkpoints = get("/jobs/" + job + "/checkpoints");
        synchronized (this) {
            failed = Math.max(failed, checkpoints.path("counts").path("failed").asLong());
        }
        for (JsonNode c : checkpoints.path("history")) {
            long id = c.path("id").asLong();
            boolean known;
            synchronized (this) {
                known = endToEnd.containsKey(id);
            }
            if (known || !"COMPLETED".equals(c.path("status").asText())) {
                continue;
            }
            Map<String, Map<String, Long>> byVertex = new LinkedHashMap<>();
            for (Map.Entry<String, String> v : vertexNames.entrySet()) {
                JsonNode summary = get("/jobs/" + job + "/checkpoints/details/" + id + "/subtasks/" + v.getKey())
                        .path("summary");
                Map<String, Long> p = new LinkedHashMap<>();
                p.put("start-delay", summary.path("start_delay").path("max").asLong());
                p.put("alignment", summary.path("alignment").path("duration").path("max").asLong());
                p.put("sync", summary.path("checkpoint_duration").path("sync").path("max").asLong());
                p.put("async", summary.path("checkpoint_duration").path("async").path("max").asLong());
                p.put("end-to-end", summary.path("end_to_end_duration").path("max").asLong());
                byVertex.put(v.getValue(), p);
            }
            synchronized (this) {
                endToEnd.put(id, c.path("end_to_end_duration").asLong());
                byVertex.forEach((vertex, p) -> p.forEach((phase, ms) -> phases
                        .computeIfAbsent(vertex, k -> new LinkedHashMap<>())
                        .computeIfAbsent(phase, k -> new ArrayList<>())
                        .add(ms)));
            }
        }
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + ": HTTP " + response.statusCode());
        }
        return json.readTree(response.body());
    }

    /** A vertex name without Flink's long operator descriptions: its first operator, 40 characters at most. */
    private static String shortName(String name) {
        String first = name.split(" -> ")[0].replaceAll("\\[\\d+\\]:", "").trim();
        return first.length() > 40 ? first.substring(0, 40) : first;
    }

    /** Stops polling. */
    @Override
    public void close() throws InterruptedException {
        stopped = true;
        poller.interrupt();
        poller.join();
    }

    synchronized long[] endToEndMillis() {
        return endToEnd.values().stream().mapToLong(Long::longValue).sorted().toArray();
    }

    synchronized long failed() {
        return failed;
    }

    synchronized String lastError() {
        return lastError;
    }

    /** Per vertex, per phase, "p50 / p99 / max" of the slowest subtask's milliseconds. */
    synchronized Map<String, Map<String, String>> phaseSummary() {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        phases.forEach((vertex, p) -> p.forEach((phase, values) -> {
            long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
            out.computeIfAbsent(vertex, k -> new LinkedHashMap<>()).put(phase,
                    percentile(sorted, 0.5) + " / " + percentile(sorted, 0.99) + " / " + sorted[sorted.length - 1]);
        }));
        return out;
    }

    static long percentile(long[] sorted, double q) {
        return sorted.length == 0 ? -1 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))];
    }

    @Override
    public String toString() {
        return "CheckpointTimes" + Arrays.toString(endToEndMillis());
    }
}
