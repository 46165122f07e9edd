package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.SortedRun;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A file-free {@link CompactRewriter}: a rewrite produces one file per call spanning the sections'
 * key range, whose size and row count are the sums of the inputs' (delete count kept unless deletes
 * are dropped). Records every call and the thread it ran on; can be made to block or fail.
 */
final class RecordingRewriter implements CompactRewriter {
    record RewriteCall(int outputLevel, boolean dropDelete, List<List<SortedRun>> sections) {
        List<String> inputNames() {
            List<String> names = new ArrayList<>();
            for (List<SortedRun> section : sections) {
                for (SortedRun run : section) {
                    names.addAll(TestFiles.names(run.files()));
                }
            }
            Collections.sort(names);
            return names;
        }
    }

    final List<RewriteCall> rewrites = Collections.synchronizedList(new ArrayList<>());
    final List<DataFileMeta> upgrades = Collections.synchronizedList(new ArrayList<>());
    final List<DataFileMeta> discarded = Collections.synchronizedList(new ArrayList<>());
    final List<String> threads = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger outputs = new AtomicInteger();

    /** Counted down when a rewrite starts. */
    volatile CountDownLatch started = new CountDownLatch(1);
    /** When set, each rewrite waits for it (interruptibly) before producing output. */
    volatile CountDownLatch gate;
    /** When set, the next rewrite throws it. */
    volatile Exception failure;
    /** Fail only once this many rewrites have succeeded. */
    volatile int failAfter;

    @Override
    public CompactResult rewrite(int outputLevel, boolean dropDelete, List<List<SortedRun>> sections)
            throws Exception {
        threads.add(Thread.currentThread().getName());
        started.countDown();
        if (gate != null) {
            gate.await();
        }
        if (failure != null && rewrites.size() >= failAfter) {
            throw failure;
        }
        rewrites.add(new RewriteCall(outputLevel, dropDelete, sections));
        List<DataFileMeta> before = new ArrayList<>();
        for (List<SortedRun> section : sections) {
            for (SortedRun run : section) {
                before.addAll(run.files());
            }
        }
        BinaryRow min = null;
        BinaryRow max = null;
        long size = 0;
        long rows = 0;
        long deletes = 0;
        long minSeq = Long.MAX_VALUE;
        long maxSeq = Long.MIN_VALUE;
        for (DataFileMeta f : before) {
            min = min == null || TestFiles.KEYS.compare(f.minKey(), min) < 0 ? f.minKey() : min;
            max = max == null || TestFiles.KEYS.compare(f.maxKey(), max) > 0 ? f.maxKey() : max;
            size += f.fileSize();
            rows += f.rowCount();
            deletes += f.deleteRowCountOrZero();
            minSeq = Math.min(minSeq, f.minSequenceNumber());
            maxSeq = Math.max(maxSeq, f.maxSequenceNumber());
        }
        DataFileMeta out = TestFiles.withDeletes(TestFiles.withSeq(TestFiles.withRows(
                TestFiles.file("out-" + outputs.incrementAndGet(), outputLevel, TestFiles.keyOf(min),
                        TestFiles.keyOf(max), size), rows), minSeq, maxSeq), dropDelete ? 0 : deletes);
        return new CompactResult(before, List.of(out));
    }

    @Override
    public CompactResult upgrade(int outputLevel, DataFileMeta file) throws Exception {
        threads.add(Thread.currentThread().getName());
        upgrades.add(file);
        return CompactRewriter.super.upgrade(outputLevel, file);
    }

    @Override
    public void discardRewritten(List<DataFileMeta> written) {
        discarded.addAll(written);
    }
}
