package dev.streamhouse.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Workload sizes, from {@code --name value} arguments. The defaults are the sizes; {@code
 * --quick} switches to small ones for a smoke run. Both {@link BenchRunner} and {@link BenchMain}
 * parse the same arguments, so the runner passes them to every child JVM unchanged.
 */
final class BenchParams {

    /** Rows written by the write workloads (and into the table the scan workloads read). */
    final long rows;
    /** Distinct key range: ids are drawn uniformly from [1, keys]. */
    final long keys;
    /** Target rows per second of the streaming writer (streaming-freshness, compaction). */
    final long ratePerSecond;
    /** How long the streaming writer runs. */
    final long streamSeconds;
    /** How long checkpoint-under-compaction's upsert stream runs. */
    final long compactionSeconds;
    /** How long the soak workload's writer runs, in minutes. */
    final long soakMinutes;
    /** Checkpoint interval of streaming jobs. */
    final long checkpointMillis;
    /** How many snapshots behind the streaming-catch-up read starts. */
    final int catchUpSnapshots;
    /** The most snapshots scale-snapshots measures at (it measures at 10, a tenth of this, and this). */
    final int retainedSnapshots;
    /** The most files scale-files plans over (in files / 100 partitions; also at a tenth and a hundredth). */
    final long scaleFiles;
    /** Rows of the lookup joins' dimension table: ids 0 to dimRows - 1, each once. */
    final long dimRows;
    /** Probes of the lookup joins' timed job (besides it, a job of {@link #SMALL_PROBES}). */
    final long probes;
    /** Rows of the cdc-snapshot workload's MySQL table: {@code --rows} when given, else its own default. */
    final long cdcRows;
    /** Change events of the kafka-sync workload's topic: {@code --rows} when given, else its own default. */
    final long kafkaEvents;

    /**
     * Probes of the lookup joins' small job, whose time (job start and cache bootstrap) is taken
     * off the full job's. Not scaled: it only has to be small.
     */
    static final long SMALL_PROBES = 1_000;

    private BenchParams(Map<String, String> values, boolean quick) {
        rows = longValue(values, "rows", quick ? 200_000 : 5_000_000);
        keys = longValue(values, "keys", quick ? 60_000 : 1_500_000);
        ratePerSecond = longValue(values, "rate", quick ? 5_000 : 50_000);
        streamSeconds = longValue(values, "seconds", quick ? 10 : 60);
        checkpointMillis = longValue(values, "checkpoint-ms", 1_000);
        compactionSeconds = longValue(values, "compaction-seconds", quick ? 30 : 300);
        soakMinutes = longValue(values, "soak-minutes", quick ? 1 : 30);
        catchUpSnapshots = Math.toIntExact(longValue(values, "snapshots", quick ? 100 : 1_000));
        retainedSnapshots = Math.toIntExact(longValue(values, "retained-snapshots", quick ? 1_000 : 10_000));
        scaleFiles = longValue(values, "files", quick ? 10_000 : 100_000);
        dimRows = longValue(values, "dim-rows", quick ? 100_000 : 1_000_000);
        probes = longValue(values, "probes", quick ? 200_000 : 2_000_000);
        cdcRows = values.containsKey("cdc-rows") || !values.containsKey("rows")
                ? longValue(values, "cdc-rows", quick ? 200_000 : 1_000_000) : rows;
        kafkaEvents = values.containsKey("kafka-events") || !values.containsKey("rows")
                ? longValue(values, "kafka-events", quick ? 100_000 : 1_000_000) : rows;
        if (keys < 1 || rows < 1 || ratePerSecond < 1 || streamSeconds < 1 || compactionSeconds < 1 || soakMinutes < 1 || checkpointMillis < 1
                || catchUpSnapshots < 1 || retainedSnapshots < 100 || scaleFiles < 1_000 || dimRows < 1 || cdcRows < 1 || kafkaEvents < 1) {
            throw new IllegalArgumentException(
                    "Cannot run: sizes must be positive, got " + values);
        }
        if (probes < 10 * SMALL_PROBES) {
            throw new IllegalArgumentException(
                    "Cannot run: --probes must be at least "
                            + 10 * SMALL_PROBES
                            + " (the lookup joins take a "
                            + SMALL_PROBES
                            + "-probe job's time off), got "
                            + probes);
        }
    }

    /** The size options and their meaning, for usage messages. */
    static String usage() {
        return String.join(
                "\n",
                "  --rows N           rows written (default 5000000; --quick 200000); also cdc-snapshot's and kafka-sync's",
                "  --cdc-rows N       rows of cdc-snapshot's MySQL table (default 1000000; --quick 200000)",
                "  --kafka-events N   change events kafka-sync puts into its topic (default 1000000; --quick 100000)",
                "  --keys N           ids drawn from [1, N] (default 1500000; --quick 60000)",
                "  --rate N           streaming writer rows/s (default 50000; --quick 5000)",
                "  --seconds N        streaming writer duration (default 60; --quick 10)",
                "  --checkpoint-ms N  streaming checkpoint interval (default 1000)",
                "  --compaction-seconds N  checkpoint-under-compaction's stream duration (default 300; --quick 30)",
                "  --soak-minutes N   soak's writer duration (default 30; --quick 1)",
                "  --snapshots N      snapshots behind a streaming-catch-up read (default 1000; --quick 100)",
                "  --retained-snapshots N  scale-snapshots measures at 10, N/10 and N snapshots (default 10000; --quick 1000; at least 100)",
                "  --files N          scale-files plans over N / 100, N / 10 and N files in N / 100 partitions (default 100000; --quick 10000; at least 1000)",
                "  --dim-rows N       lookup joins' dimension table, ids [0, N) (default 1000000; --quick 100000)",
                "  --probes N         lookup joins' probes (default 2000000; --quick 200000)",
                "  --quick            small sizes for a smoke run");
    }

    /**
     * Parses the size options out of {@code args}; everything else is returned in {@code rest}.
     */
    static BenchParams parse(List<String> args, List<String> rest) {
        Map<String, String> values = new LinkedHashMap<>();
        boolean quick = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--quick":
                    quick = true;
                    break;
                case "--rows":
                case "--keys":
                case "--rate":
                case "--seconds":
                case "--checkpoint-ms":
                case "--compaction-seconds":
                case "--soak-minutes":
                case "--snapshots":
                case "--retained-snapshots":
                case "--files":
                case "--dim-rows":
                case "--probes":
                case "--cdc-rows":
                case "--kafka-events":
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException("Cannot parse " + arg + ": it needs a value");
                    }
                    values.put(arg.substring(2), args.get(++i));
                    break;
                default:
                    rest.add(arg);
            }
        }
        return new BenchParams(values, quick);
    }

    /** These sizes as arguments {@link #parse} reads back. */
    List<String> toArgs() {
        List<String> out = new ArrayList<>();
        out.add("--rows");
        out.add(Long.toString(rows));
        out.add("--keys");
        out.add(Long.toString(keys));
        out.add("--rate");
        out.add(Long.toString(ratePerSecond));
        out.add("--seconds");
        out.add(Long.toString(streamSeconds));
        out.add("--checkpoint-ms");
        out.add(Long.toString(checkpointMillis));
        out.add("--compaction-seconds");
        out.add(Long.toString(compactionSeconds));
        out.add("--soak-minutes");
        out.add(Long.toString(soakMinutes));
        out.add("--snapshots");
        out.add(Integer.toString(catchUpSnapshots));
        out.add("--retained-snapshots");
        out.add(Integer.toString(retainedSnapshots));
        out.add("--files");
        out.add(Long.toString(scaleFiles));
        out.add("--dim-rows");
        out.add(Long.toString(dimRows));
        out.add("--probes");
        out.add(Long.toString(probes));
        out.add("--cdc-rows");
        out.add(Long.toString(cdcRows));
        out.add("--kafka-events");
        out.add(Long.toString(kafkaEvents));
        return out;
    }

    @Override
    public String toString() {
        return String.format(
                "rows=%d keys=%d rate=%d/s seconds=%d compaction-seconds=%d soak-minutes=%d checkpoint=%dms snapshots=%d retained-snapshots=%d files=%d dim-rows=%d"
                        + " probes=%d cdc-rows=%d kafka-events=%d",
                rows, keys, ratePerSecond, streamSeconds, compactionSeconds, soakMinutes, checkpointMillis, catchUpSnapshots,
                retainedSnapshots, scaleFiles, dimRows, probes, cdcRows, kafkaEvents);
    }

    private static long longValue(Map<String, String> values, String key, long defaultValue) {
        String value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "Cannot parse --" + key + " '" + value + "': expected a whole number", e);
        }
    }
}
