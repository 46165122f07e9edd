package dev.streamhouse.storage.mergetree.buffer;

import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.canonical;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.drain;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.lastWinsModel;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.randomPuts;
import static dev.streamhouse.storage.mergetree.buffer.BufferTestData.valueType;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Page accounting and the preemption protocol, with fake owners and with real write buffers. */
class MemoryPoolTest {
    private static final RowType KEY = RowType.of(BIGINT());

    @TempDir
    Path dir;

    /** An owner holding pages, recording flush requests; flushing frees everything unless told to decline. */
    private static final class FakeOwner implements MemoryOwner {
        final String name;
        final MemoryPool pool;
        final List<byte[]> pages = new ArrayList<>();
        final List<String> log;
        boolean decline;
        Runnable duringFlush = () -> {};

        FakeOwner(String name, MemoryPool pool, List<String> log) {
            this.name = name;
            this.pool = pool;
            this.log = log;
            pool.register(this);
        }

        void take(int n) throws IOException {
            for (int i = 0; i < n; i++) {
                byte[] page = pool.allocate(this);
                assertThat(page).isNotNull();
                pages.add(page);
            }
        }

        @Override
        public long memoryOccupancy() {
            return (long) pages.size() * pool.pageSize();
        }

        @Override
        public void flushMemory() {
            log.add(name);
            duringFlush.run();
            if (!decline) {
                pool.release(pages);
                pages.clear();
            }
        }
    }

    @Test
    void handsOutAtMostTotalBytesAndReusesReleasedPages() throws IOException {
        MemoryPool pool = new MemoryPool(4 * 1024 + 100, 1024);
        assertThat(pool.totalBytes()).isEqualTo(4 * 1024);
        assertThat(pool.pageCount()).isEqualTo(4);
        List<byte[]> pages = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pages.add(pool.allocate(null));
        }
        assertThat(pool.allocate(null)).isNull();
        assertThat(pool.usedBytes()).isEqualTo(4096);
        assertThat(pool.freeBytes()).isZero();
        pool.release(pages.get(2));
        assertThat(pool.allocate(null)).isSameAs(pages.get(2));
        pool.release(pages);
        assertThat(pool.usedBytes()).isZero();
        assertThatThrownBy(() -> pool.release(new byte[1024]))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("double release");
        assertThatThrownBy(() -> pool.release(new byte[10]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not come from this pool");
    }

    @Test
    void rejectsInvalidSizes() {
        assertThatThrownBy(() -> new MemoryPool(1 << 20, 1000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power of two");
        assertThatThrownBy(() -> new MemoryPool(100, 256))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("write-buffer-size 100 bytes is smaller than one page (256 bytes)");
    }

    @Test
    void preemptsTheLargestOwnerFirst() throws IOException {
        MemoryPool pool = new MemoryPool(6 * 256, 256);
        List<String> log = new ArrayList<>();
        FakeOwner small = new FakeOwner("small", pool, log);
        FakeOwner large = new FakeOwner("large", pool, log);
        FakeOwner requester = new FakeOwner("requester", pool, log);
        small.take(1);
        large.take(3);
        requester.take(2);
        requester.take(1);
        assertThat(log).containsExactly("large");
        assertThat(large.pages).isEmpty();
        assertThat(small.pages).hasSize(1);
    }

    @Test
    void countsFlushesOfOtherOwnersAsPreemptions() throws IOException {
        MemoryPool pool = new MemoryPool(4 * 256, 256);
        List<String> log = new ArrayList<>();
        int[] preemptions = {0};
        pool.onPreemption(() -> preemptions[0]++);
        FakeOwner other = new FakeOwner("other", pool, log);
        FakeOwner requester = new FakeOwner("requester", pool, log);
        other.take(3);
        requester.take(1);
        assertThat(preemptions[0]).as("free pages: no preemption").isZero();
        requester.take(1);
        assertThat(log).containsExactly("other");
        assertThat(preemptions[0]).isEqualTo(1);
        requester.take(3);
        assertThat(log).as("the requester flushes itself: not a preemption").containsExactly("other", "requester");
        assertThat(preemptions[0]).isEqualTo(1);
    }

    @Test
    void skipsDecliningOwnersButStopsAtTheRequester() throws IOException {
        MemoryPool pool = new MemoryPool(6 * 256, 256);
        List<String> log = new ArrayList<>();
        FakeOwner large = new FakeOwner("large", pool, log);
        FakeOwner requester = new FakeOwner("requester", pool, log);
        FakeOwner small = new FakeOwner("small", pool, log);
        large.take(3);
        requester.take(2);
        small.take(1);
        large.decline = true;
        requester.decline = true;
        assertThat(pool.allocate(requester)).isNull();
        assertThat(log).as("the smaller owner is never made to flush for the requester").containsExactly("large", "requester");
        assertThat(small.pages).hasSize(1);
    }

    @Test
    void nestedAllocationDuringAFlushDoesNotPreempt() throws IOException {
        MemoryPool pool = new MemoryPool(2 * 256, 256);
        List<String> log = new ArrayList<>();
        FakeOwner a = new FakeOwner("a", pool, log);
        FakeOwner b = new FakeOwner("b", pool, log);
        a.take(1);
        b.take(1);
        List<byte[]> nested = new ArrayList<>();
        a.duringFlush = () -> {
            try {
                nested.add(pool.allocate(a));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        };
        assertThat(pool.allocate(b)).isNotNull();
        assertThat(nested).containsExactly((byte[]) null);
        assertThat(log).containsExactly("a");
    }

    @Test
    void anotherBufferSpillsWhenOneNeedsMemory() throws IOException {
        MemoryPool pool = new MemoryPool(32 * 1024, 1024);
        try (WriteBuffer a = WriteBuffer.builder(KEY, valueType(), pool).spillTo(dir).build();
                WriteBuffer b = WriteBuffer.builder(KEY, valueType(), pool).spillTo(dir).build()) {
            List<BufferTestData.Put> puts = randomPuts(KEY, new Random(1), 600, 100);
            int i = 0;
            while (pool.freeBytes() > 0) {
                BufferTestData.Put p = puts.get(i++);
                assertThat(a.put(p.seq(), p.kind(), p.key(), p.value())).isTrue();
            }
            assertThat(a.spilledRunCount()).isZero();
            List<BufferTestData.Put> forA = puts.subList(0, i);
            BufferTestData.Put p = puts.get(i);
            assertThat(b.put(p.seq(), p.kind(), p.key(), p.value())).isTrue();
            assertThat(a.spilledRunCount()).as("a, the largest owner, spilled").isEqualTo(1);
            assertThat(a.memoryOccupancy()).isZero();
            assertThat(pool.usedBytes()).isEqualTo(a.memoryOccupancy() + b.memoryOccupancy());
            assertThat(canonical(drain(a, new LastWinsMergeFunction()))).isEqualTo(lastWinsModel(KEY, forA));
            assertThat(canonical(drain(b, new LastWinsMergeFunction()))).isEqualTo(lastWinsModel(KEY, List.of(p)));
        }
    }

    @Test
    void nonSpillableBufferIsDrainedByItsFlushHandler() throws IOException {
        MemoryPool pool = new MemoryPool(32 * 1024, 1024);
        List<KeyValue> flushedFromA = new ArrayList<>();
        int[] flushes = new int[1];
        try (WriteBuffer a = WriteBuffer.builder(KEY, valueType(), pool).onFlushRequest(buffer -> {
                    flushes[0]++;
                    buffer.forEachMerged(new LastWinsMergeFunction(), flushedFromA::add);
                    buffer.clear();
                }).build();
                WriteBuffer b = WriteBuffer.builder(KEY, valueType(), pool).build()) {
            List<BufferTestData.Put> puts = randomPuts(KEY, new Random(2), 600, 100);
            int i = 0;
            while (true) {
                BufferTestData.Put p = puts.get(i);
                if (!a.put(p.seq(), p.kind(), p.key(), p.value())) {
                    break; // a is the largest owner and the requester: it must flush itself
                }
                i++;
            }
            assertThat(flushes[0]).as("a's own put never calls its handler").isZero();
            BufferTestData.Put p = puts.get(i);
            assertThat(b.put(p.seq(), p.kind(), p.key(), p.value())).isTrue();
            assertThat(flushes[0]).isEqualTo(1);
            assertThat(a.isEmpty()).isTrue();
            assertThat(canonical(flushedFromA)).isEqualTo(lastWinsModel(KEY, puts.subList(0, i)));
        }
    }

    @Test
    void occupancyNeverExceedsThePoolAcrossManyBuffers() throws IOException {
        MemoryPool pool = new MemoryPool(24 * 1024, 512);
        Random random = new Random(5);
        List<WriteBuffer> buffers = new ArrayList<>();
        Map<WriteBuffer, List<BufferTestData.Put>> accepted = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            WriteBufferBuilder builder = WriteBuffer.builder(KEY, valueType(), pool);
            if (i % 2 == 0) {
                builder.spillTo(dir.resolve("b" + i));
            }
            WriteBuffer buffer = builder.build();
            buffers.add(buffer);
            accepted.put(buffer, new ArrayList<>());
        }
        List<BufferTestData.Put> puts = randomPuts(KEY, random, 6000, 300);
        int refused = 0;
        for (BufferTestData.Put p : puts) {
            WriteBuffer target = buffers.get(random.nextInt(buffers.size()));
            if (!target.put(p.seq(), p.kind(), p.key(), p.value())) {
                refused++;
                assertThat(canonical(drain(target, new LastWinsMergeFunction())))
                        .isEqualTo(lastWinsModel(KEY, accepted.get(target)));
                target.clear();
                accepted.get(target).clear();
                assertThat(target.put(p.seq(), p.kind(), p.key(), p.value())).isTrue();
            }
            accepted.get(target).add(p);
            long occupied = buffers.stream().mapToLong(WriteBuffer::memoryOccupancy).sum();
            assertThat(occupied).isEqualTo(pool.usedBytes()).isLessThanOrEqualTo(pool.totalBytes());
        }
        assertThat(refused).as("non-spillable buffers had to flush").isPositive();
        assertThat(buffers.get(0).spilledRunCount() + buffers.get(2).spilledRunCount()).isPositive();
        for (WriteBuffer buffer : buffers) {
            assertThat(canonical(drain(buffer, new LastWinsMergeFunction())))
                    .isEqualTo(lastWinsModel(KEY, accepted.get(buffer)));
            buffer.close();
        }
        assertThat(pool.usedBytes()).isZero();
    }

    @Test
    void registeringTwiceFails() {
        MemoryPool pool = new MemoryPool(1024, 256);
        MemoryOwner owner = new FakeOwner("x", pool, new ArrayList<>());
        assertThatThrownBy(() -> pool.register(owner))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already registered");
        pool.unregister(owner);
        pool.register(owner);
    }
}
