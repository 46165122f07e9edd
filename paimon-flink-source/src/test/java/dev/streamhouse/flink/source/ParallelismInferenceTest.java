package dev.streamhouse.flink.source;

import dev.streamhouse.storage.options.Options;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParallelismInferenceTest {

    private static OptionalInt infer(Map<String, String> options, int splits, Long limit) {
        return ParallelismInference.inferParallelism(new Options(options), splits, limit);
    }

    @Test
    void byDefaultOneTaskPerSplit() {
        assertThat(infer(Map.of(), 7, null)).hasValue(7);
        assertThat(infer(Map.of(), 1, null)).hasValue(1);
    }

    @Test
    void anEmptyReadStillGetsOneTask() {
        assertThat(infer(Map.of(), 0, null)).hasValue(1);
    }

    @Test
    void cappedByTheMaximumWhichDefaultsTo1024() {
        assertThat(infer(Map.of(), 5000, null)).hasValue(1024);
        assertThat(infer(Map.of("scan.infer-parallelism.max", "16"), 5000, null)).hasValue(16);
        assertThat(infer(Map.of("scan.infer-parallelism.max", "16"), 3, null)).hasValue(3);
    }

    @Test
    void cappedByASmallLimit() {
        assertThat(infer(Map.of(), 100, 10L)).hasValue(10);
        assertThat(infer(Map.of(), 100, 1000L)).hasValue(100);
        assertThat(infer(Map.of(), 100, 0L)).hasValue(1);
        assertThat(infer(Map.of(), 5000, Long.MAX_VALUE)).hasValue(1024);
    }

    @Test
    void configuredParallelismWinsOverEverything() {
        assertThat(infer(Map.of("scan.parallelism", "3"), 100, null)).hasValue(3);
        assertThat(infer(Map.of("scan.parallelism", "3", "scan.infer-parallelism", "false"), 100, null)).hasValue(3);
        assertThat(infer(Map.of("scan.parallelism", "50", "scan.infer-parallelism.max", "4"), 100, 2L)).hasValue(50);
    }

    @Test
    void withoutInferenceFlinksDefaultApplies() {
        assertThat(infer(Map.of("scan.infer-parallelism", "false"), 100, null)).isEmpty();
    }

    @Test
    void refusesParallelismsBelowOne() {
        assertThatThrownBy(() -> infer(Map.of("scan.parallelism", "0"), 1, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'scan.parallelism' = 0");
        assertThatThrownBy(() -> infer(Map.of("scan.infer-parallelism.max", "-1"), 1, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'scan.infer-parallelism.max' = -1");
    }
}
