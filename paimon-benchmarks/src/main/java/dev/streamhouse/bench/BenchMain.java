package dev.streamhouse.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs one workload for one implementation in this JVM and prints {@link Report} lines; {@link
 * BenchRunner} starts one such JVM per run.
 *
 * <pre>
 * BenchMain &lt;workload|prepare-pk|prepare-append|prepare-dv|prepare-reader|prepare-dim&gt; &lt;ours|paimon|parquet&gt; &lt;work dir&gt; [size options]
 * </pre>
 *
 * The implementation named must be the one on the classpath; the Flink workloads check the catalog
 * class and refuse to measure the wrong one. Exit status 0 when the workload ran; otherwise 1 after
 * a {@code FAILED reason=...} line.
 */
public final class BenchMain {
    private BenchMain() {}

    public static void main(String[] args) {
        try {
            run(args);
            System.out.flush();
            // Flink leaves non-daemon threads behind (e.g. a cancelled streaming job's cluster).
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace();
            System.out.println("FAILED reason=" + Report.oneLine(FlinkWorkloads.rootCause(t)));
            System.out.flush();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        List<String> rest = new ArrayList<>();
        BenchParams params = BenchParams.parse(Arrays.asList(args), rest);
        if (rest.size() != 3) {
            throw new IllegalArgumentException(
                    "Usage: BenchMain <workload|prepare-pk|prepare-append|prepare-dv|prepare-reader|prepare-dim> <ours|paimon|parquet> <work dir> [options]\n"
                            + "workloads: "
                            + Workload.ids()
                            + "\n"
                            + BenchParams.usage());
        }
        String workloadId = rest.get(0);
        String impl = rest.get(1);
        Path workDir = Path.of(rest.get(2)).toAbsolutePath();
        new Report(workloadId, impl).info("sizes: %s", params);
        if ("prepare-pk".equals(workloadId)) {
            new FlinkWorkloads(impl, warehouseUri(workDir), params).prepare();
            return;
        }
        if ("prepare-append".equals(workloadId)) {
            new FlinkWorkloads(impl, warehouseUri(workDir), params).prepareAppend();
            return;
        }
        if ("prepare-dv".equals(workloadId)) {
            new DvBatchScan(new FlinkWorkloads(impl, warehouseUri(workDir), params), params).prepare();
            return;
        }
        if ("prepare-reader".equals(workloadId)) {
            new ReaderScan(new FlinkWorkloads(impl, warehouseUri(workDir), params), params).prepare();
            return;
        }
        if ("prepare-dim".equals(workloadId)) {
            new FlinkWorkloads(impl, warehouseUri(workDir), params).prepareDim();
            return;
        }
        Workload workload = Workload.of(workloadId);
        if (workload.skippedBecause != null) {
            throw new IllegalArgumentException(
                    "Cannot run " + workload.id + ": " + workload.skippedBecause);
        }
        if (!workload.impls().contains(impl)) {
            throw new IllegalArgumentException(
                    "Cannot run " + workload.id + " as '" + impl + "': it runs as " + workload.impls());
        }
        if (workload == Workload.PARQUET_LIMIT) {
            new ParquetLimit(params, workDir.resolve("parquet-limit")).run();
        } else if (workload == Workload.CDC_SNAPSHOT) {
            new CdcSnapshot(params).run();
        } else if (workload == Workload.READER_SCAN) {
            new ReaderScan(new FlinkWorkloads(impl, warehouseUri(workDir), params), params)
                    .run(new Report(workload.id, impl), warehouseUri(workDir));
        } else if (workload == Workload.SCALE_SNAPSHOTS) {
            new ScaleSnapshots(impl, params).run(new Report(workload.id, impl), warehouseUri(workDir));
        } else if (workload == Workload.SCALE_FILES) {
            new ScaleFiles(impl, params).run(new Report(workload.id, impl), warehouseUri(workDir));
        } else if (workload == Workload.KAFKA_SYNC) {
            new KafkaSyncDatabase(impl, workDir, params).run();
        } else {
            new FlinkWorkloads(impl, warehouseUri(workDir), params).run(workload);
        }
    }

    private static String warehouseUri(Path workDir) {
        return workDir.resolve("warehouse").toUri().toString();
    }
}
