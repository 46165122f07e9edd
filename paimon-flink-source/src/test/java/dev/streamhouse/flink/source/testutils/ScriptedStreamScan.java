package dev.streamhouse.flink.source.testutils;

import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableScan;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * A stream scan over imagined snapshots {@code 1..latest}: the changes of snapshot n are the splits
 * {@code changes.apply(n)}. It starts at snapshot 1 (or with the full splits of a given snapshot) and
 * can be made to fail its next plan.
 */
public final class ScriptedStreamScan implements StreamTableScan {
    private final LongFunction<List<DataSplit>> changes;
    private long latest;
    private Long next;
    private Long fullSnapshot;
    private RuntimeException nextFailure;
    private Long failAt;
    private RuntimeException failAtFailure;
    private int plans;
    private final List<Long> restores = new ArrayList<>();

    public ScriptedStreamScan(LongFunction<List<DataSplit>> changes) {
        this.changes = changes;
    }

    /** Starts with snapshot {@code id} in full (full splits from {@code changes}, marked non-delta). */
    public ScriptedStreamScan startingFull(long id) {
        this.fullSnapshot = id;
        return this;
    }

    /** Snapshots up to {@code latest} now exist. */
    public void commitUpTo(long latest) {
        this.latest = latest;
    }

    public void failNextPlan(RuntimeException failure) {
        this.nextFailure = failure;
    }

    /** The plan of snapshot {@code snapshotId}'s changes fails once, consuming nothing. */
    public void failOnceAt(long snapshotId, RuntimeException failure) {
        this.failAt = snapshotId;
        this.failAtFailure = failure;
    }

    /** How many times {@link #plan()} was called. */
    public int plans() {
        return plans;
    }

    public List<Long> restores() {
        return restores;
    }

    @Override
    public TableScan.Plan plan() {
        plans++;
        if (nextFailure != null) {
            RuntimeException f = nextFailure;
            nextFailure = null;
            throw f;
        }
        if (next == null) {
            if (fullSnapshot != null) {
                next = fullSnapshot + 1;
                List<DataSplit> full = new ArrayList<>();
                for (DataSplit s : changes.apply(fullSnapshot)) {
                    full.add(new DataSplit(s.snapshotId(), s.partition(), s.bucket(), s.totalBuckets(), s.files(),
                            s.rawConvertible(), false));
                }
                return new TableScan.Plan(fullSnapshot, full);
            }
            next = 1L;
        }
        if (failAt != null && failAt.equals(next)) {
            failAt = null;
            throw failAtFailure;
        }
        if (next > latest) {
            return new TableScan.Plan(null, List.of());
        }
        long id = next++;
        return new TableScan.Plan(id, changes.apply(id));
    }

    @Override
    public Long checkpoint() {
        return next;
    }

    @Override
    public void restore(Long nextSnapshotId) {
        restores.add(nextSnapshotId);
        this.next = nextSnapshotId;
    }

    /** No consumer: the enumerator under test gets its progress writer directly. */
    @Override
    public java.util.Optional<String> consumerId() {
        return java.util.Optional.empty();
    }

    @Override
    public void recordConsumerProgress(long nextSnapshotId) {
        throw new IllegalStateException("scripted scans have no consumer");
    }
}
