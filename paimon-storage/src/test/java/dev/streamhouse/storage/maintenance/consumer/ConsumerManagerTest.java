package dev.streamhouse.storage.maintenance.consumer;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Consumer files {@code consumer/consumer-<id>} (docs/format.md §11.3). */
class ConsumerManagerTest {
    @TempDir
    java.nio.file.Path tmp;

    private ConsumerManager consumers;
    private java.nio.file.Path dir;

    @BeforeEach
    void create() {
        consumers = new ConsumerManager(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()));
        dir = tmp.resolve("t").resolve("consumer");
    }

    @Test
    void roundTripsAndWritesExactlyPaimonsJson() throws Exception {
        assertThat(consumers.nextSnapshot("c1")).isEmpty();
        consumers.commit("c1", 5);
        assertThat(consumers.nextSnapshot("c1")).contains(5L);
        assertThat(Files.readString(dir.resolve("consumer-c1"), StandardCharsets.UTF_8))
                .isEqualTo("{\n  \"nextSnapshot\" : 5\n}");
        assertThat(consumers.consumerPath("c1").toString()).endsWith("/t/consumer/consumer-c1");

        // Overwritten in place, also with a smaller value (reset), and large ids survive.
        consumers.commit("c1", 2);
        assertThat(consumers.nextSnapshot("c1")).contains(2L);
        consumers.commit("c1", Long.MAX_VALUE);
        assertThat(consumers.nextSnapshot("c1")).contains(Long.MAX_VALUE);
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("consumer-c1");
    }

    @Test
    void readsWhatPaimonWritesIncludingUnknownFields() throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("consumer-flink"), "{\"nextSnapshot\":12}");
        Files.writeString(dir.resolve("consumer-future"), "{\n  \"nextSnapshot\" : 3,\n  \"extra\" : \"x\"\n}");
        assertThat(consumers.nextSnapshot("flink")).contains(12L);
        assertThat(consumers.nextSnapshot("future")).contains(3L);
    }

    @Test
    void rejectsInvalidIdsAndSnapshots() {
        for (String bad : Arrays.asList(null, "", "  ", "a/b", "a\\b")) {
            assertThatThrownBy(() -> consumers.commit(bad, 1)).as(String.valueOf(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Cannot use consumer id '" + bad + "'")
                    .hasMessageContaining("fix option 'consumer-id'");
            assertThatThrownBy(() -> consumers.nextSnapshot(bad)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> consumers.commit("c", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("consumer 'c'").hasMessageContaining("snapshot ids start at 1");
        assertThat(Files.exists(dir)).isFalse();
    }

    @Test
    void corruptFilesFailNamingTheFile() throws Exception {
        Files.createDirectories(dir);
        for (String content : new String[] {"", "garbage", "{}", "{\"nextSnapshot\":\"7\"}", "{\"nextSnapshot\":1.5}",
                "[1]"}) {
            Files.writeString(dir.resolve("consumer-bad"), content);
            assertThatThrownBy(() -> consumers.nextSnapshot("bad")).as(content)
                    .isInstanceOf(CorruptConsumerException.class)
                    .hasMessageContaining("Cannot read consumer file ")
                    .hasMessageContaining("consumer/consumer-bad")
                    .hasMessageContaining("fix or delete the file");
        }
        assertThatThrownBy(consumers::list).isInstanceOf(CorruptConsumerException.class);
    }

    @Test
    void listsConsumersAndDeletes() throws Exception {
        assertThat(consumers.list()).as("no consumer directory yet").isEmpty();
        consumers.commit("b", 7);
        consumers.commit("a", 3);
        Files.writeString(dir.resolve(".consumer-a.tmp"), "partial");
        Files.writeString(dir.resolve("other"), "x");
        Files.writeString(dir.resolve("consumer-"), "{\"nextSnapshot\":1}");
        Files.createDirectories(dir.resolve("consumer-dir"));
        assertThat(consumers.list()).containsExactly(java.util.Map.entry("a", 3L), java.util.Map.entry("b", 7L));

        consumers.delete("a");
        consumers.delete("a");
        consumers.delete("never-existed");
        assertThat(consumers.nextSnapshot("a")).isEmpty();
        assertThat(consumers.list()).containsOnlyKeys("b");
    }
}
