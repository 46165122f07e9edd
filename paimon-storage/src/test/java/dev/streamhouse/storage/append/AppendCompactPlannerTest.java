package dev.streamhouse.storage.append;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.stats.SimpleStats;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AppendCompactPlannerTest {
    private static final long TARGET = 100;
    private final AppendCompactPlanner planner = new AppendCompactPlanner(TARGET, 3, 5, false);

    /** Files named f0, f1, ... with these sizes, in sequence order. */
    private static List<DataFileMeta> files(long... sizes) {
        List<DataFileMeta> out = new ArrayList<>();
        long seq = 0;
        for (int i = 0; i < sizes.length; i++) {
            out.add(DataFileMeta.forAppend("f" + i, sizes[i], 10, SimpleStats.EMPTY, seq, seq + 9, 0, 0L,
                    FileSource.APPEND, null));
            seq += 10;
        }
        return out;
    }

    private static List<String> names(List<DataFileMeta> files) {
        return files.stream().map(DataFileMeta::fileName).toList();
    }

    @Test
    void fullCompactionKeepsLeadingLargeFilesAndRewritesTheRestWhenMostlySmall() {
        assertThat(names(planner.fullBucket(files(150, 120, 10, 20, 130)))).containsExactly("f2", "f3", "f4");
        assertThat(planner.fullBucket(files(150, 10, 130))).as("fewer than 3 files after the large head").isEmpty();
        assertThat(planner.fullBucket(files(10, 130, 140, 20))).as("as many large as small").isEmpty();
        assertThat(planner.fullBucket(files(200, 300))).isEmpty();
        assertThat(names(new AppendCompactPlanner(TARGET, 3, 5, true).fullBucket(files(150, 10))))
                .as("forced").containsExactly("f0", "f1");
    }

    @Test
    void minorCompactionTakesTheFirstWindowOfMinFileNumFilesUnderTheTarget() {
        assertThat(names(planner.minorBucket(files(10, 20, 30, 40)))).containsExactly("f0", "f1", "f2");
        // f0 alone reaches the target: the window drops it and goes on from f1.
        assertThat(names(planner.minorBucket(files(120, 10, 20, 30)))).containsExactly("f1", "f2", "f3");
        assertThat(planner.minorBucket(files(10, 20))).isEmpty();
        assertThat(planner.minorBucket(files(60, 60, 60, 60))).as("every window reaches the target").isEmpty();
    }

    @Test
    void unawarePartitionsArePackedSmallestFirstIntoBinsOfTwiceTheTarget() {
        // Files below 70 are candidates; each weighs its size plus the open cost 5.
        List<List<DataFileMeta>> bins = planner.packUnaware(files(65, 60, 69, 80, 5, 6));
        assertThat(bins).hasSize(1);
        assertThat(names(bins.get(0))).containsExactly("f4", "f5", "f1", "f0", "f2");
        assertThat(planner.packUnaware(files(10, 20))).as("two small files, below min file num").isEmpty();
        assertThat(names(planner.packUnaware(files(10, 20, 30)).get(0))).containsExactly("f0", "f1", "f2");
    }
}
