package dev.streamhouse.bench;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** The workloads of bin/bench (docs/performance.md), in the order {@code bin/bench} runs them. */
enum Workload {
    PK_UPSERT_WRITE("pk-upsert-write", false, null),
    APPEND_WRITE("append-write", false, null),
    PK_BATCH_SCAN("pk-batch-scan", true, null),
    PK_BATCH_SCAN_DV("pk-batch-scan-dv", true, null),
    READER_SCAN("reader-scan", true, null),
    APPEND_BATCH_SCAN("append-batch-scan", true, null),
    PK_COPY("pk-copy", true, null),
    APPEND_COPY("append-copy", true, null),
    PK_POINT_QUERY("pk-point-query", true, null),
    STREAMING_FRESHNESS("streaming-freshness", false, null),
    STREAMING_CATCH_UP("streaming-catch-up", false, null),
    COMPACTION("compaction", false, null),
    CHECKPOINT_UNDER_COMPACTION("checkpoint-under-compaction", false, null),
    LIFECYCLE("lifecycle", false, null),
    LOOKUP_JOIN("lookup-join", true, null),
    LOOKUP_JOIN_MISSES("lookup-join-misses", true, null),
    LOOKUP_JOIN_FULL("lookup-join-full", true, null),
    MANY_BUCKETS("many-buckets", false, null),
    MANY_PARTITIONS("many-partitions", false, null),
    SCALE_SNAPSHOTS("scale-snapshots", false, null),
    SCALE_FILES("scale-files", false, null),
    SOAK("soak", false, null),
    PARQUET_LIMIT("parquet-limit", false, null),
    CDC_SNAPSHOT("cdc-snapshot", false, null),
    KAFKA_SYNC("kafka-sync", false, null);

    final String id;
    /** Reads a table written once per implementation before the timed runs ({@link #preparation()}). */
    final boolean readsPreparedTable;
    /** Why the workload is skipped for both implementations, or null when it runs. */
    final String skippedBecause;

    Workload(String id, boolean readsPreparedTable, String skippedBecause) {
        this.id = id;
        this.readsPreparedTable = readsPreparedTable;
        this.skippedBecause = skippedBecause;
    }

    /** The BenchMain step that writes the table this workload reads (not timed). */
    String preparation() {
        switch (this) {
            case APPEND_BATCH_SCAN:
            case APPEND_COPY:
                return "prepare-append";
            case PK_BATCH_SCAN_DV:
                return "prepare-dv";
            case READER_SCAN:
                return "prepare-reader";
            case LOOKUP_JOIN:
            case LOOKUP_JOIN_MISSES:
            case LOOKUP_JOIN_FULL:
                return "prepare-dim";
            default:
                return "prepare-pk";
        }
    }

    /**
     * The one implementation whose writer prepares the table that every implementation then reads
     * (from one warehouse), or null when each implementation writes and reads its own.
     */
    String sharedTableWriter() {
        return this == PK_BATCH_SCAN_DV || this == READER_SCAN ? DvBatchScan.WRITER : null;
    }

    /**
     * The directory under the runner's work directory whose {@code warehouse} the runs of {@code
     * impl} use: the implementation's own, or the one the shared table's writer prepared.
     */
    String workDirName(String impl) {
        String writer = sharedTableWriter();
        return writer == null ? impl : "prepared-by-" + writer;
    }

    /**
     * Runs with a temporary directory of its own ({@code java.io.tmpdir} and Flink's {@code
     * io.tmp.dirs}), fresh for every run, whose size the workload samples: where lookup caches go.
     */
    boolean ownsTmpDir() {
        return this == LOOKUP_JOIN || this == LOOKUP_JOIN_MISSES || this == LOOKUP_JOIN_FULL;
    }

    /** JVM flags of this workload's runs, after (so overriding) the flags every run has. */
    List<String> jvmFlags() {
        // the many-writers workloads ask whether a small heap is enough
        return this == MANY_BUCKETS || this == MANY_PARTITIONS ? List.of("-Xmx1g") : List.of();
    }

    /** Implementations compared, in run order (A B A B). */
    List<String> impls() {
        if (this == PARQUET_LIMIT) {
            return List.of("parquet");
        }
        return this == CDC_SNAPSHOT ? List.of("ours") : List.of("ours", "paimon");
    }

    /**
     * Needs streamhouse's CDC module (paimon-flink-cdc) on the classpath of its runs as ours: the jars
     * {@link BenchRunner} adds from classpath-test.txt.
     */
    boolean needsCdc() {
        return this == CDC_SNAPSHOT || this == KAFKA_SYNC;
    }

    /**
     * Needs a Kafka broker and client (classpath-kafka.txt) in the runs of either implementation, and
     * Paimon's runs Flink's Kafka connector as Paimon links against it (target/paimon-kafka).
     */
    boolean needsKafka() {
        return this == KAFKA_SYNC;
    }

    static Workload of(String id) {
        for (Workload w : values()) {
            if (w.id.equals(id)) {
                return w;
            }
        }
        throw new IllegalArgumentException(
                "Cannot run workload '" + id + "': unknown; known are " + ids());
    }

    static boolean isId(String id) {
        return Arrays.stream(values()).anyMatch(w -> w.id.equals(id));
    }

    static String ids() {
        return Arrays.stream(values()).map(w -> w.id).collect(Collectors.joining(", "));
    }
}
