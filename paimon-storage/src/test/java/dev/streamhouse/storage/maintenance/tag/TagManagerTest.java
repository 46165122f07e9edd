package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Tag files on disk: their JSON (docs/format.md §11.1) and the operations of Paimon's tag procedures. */
class TagManagerTest {
    @TempDir
    java.nio.file.Path dir;

    private FileStoreTable tableWithSnapshots(int n) throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/t"),
                TestTables.simpleSchema());
        for (int i = 0; i < n; i++) {
            TestTables.write(table, TestTables.rows(i * 10, 2, 2));
        }
        return table;
    }

    @Test
    void aTagWithoutRetentionIsExactlyTheSnapshotFile() throws Exception {
        FileStoreTable table = tableWithSnapshots(2);
        TagManager tags = table.tagManager();
        Snapshot s1 = table.snapshotManager().snapshot(1);
        tags.create("t1", s1, null);
        String tagJson = Files.readString(java.nio.file.Path.of(dir.toString(), "db.db/t/tag/tag-t1"));
        String snapshotJson = Files.readString(java.nio.file.Path.of(dir.toString(), "db.db/t/snapshot/snapshot-1"));
        assertThat(tagJson).isEqualTo(snapshotJson).doesNotContain("tagCreateTime");
        assertThat(tags.tagOrThrow("t1")).isEqualTo(Tag.of(s1));
    }

    @Test
    void retentionMembersFollowTheSnapshotMembersInJacksonsForm() throws Exception {
        FileStoreTable table = tableWithSnapshots(1);
        Snapshot s1 = table.snapshotManager().snapshot(1);
        Tag tag = new Tag(s1, LocalDateTime.of(2026, 11, 29, 16, 23, 19, 269250640), Duration.ofHours(1));
        String json = TagSerializer.toJson(tag);
        assertThat(json).endsWith("\"nextRowId\" : 0,\n  \"tagCreateTime\" : [ 2026, 11, 29, 16, 23, 19, 269250640 ],\n"
                + "  \"tagTimeRetained\" : 3600.000000000\n}");
        assertThat(TagSerializer.fromJson(json)).isEqualTo(tag);

        Tag onTheMinute = new Tag(s1, LocalDateTime.of(2026, 1, 2, 3, 4), Duration.ofMillis(1500));
        String minute = TagSerializer.toJson(onTheMinute);
        assertThat(minute).contains("\"tagCreateTime\" : [ 2026, 1, 2, 3, 4 ]").contains("\"tagTimeRetained\" : 1.500000000");
        assertThat(TagSerializer.fromJson(minute)).isEqualTo(onTheMinute);

        String iso = json.replace("[ 2026, 11, 29, 16, 23, 19, 269250640 ]", "\"2026-11-29T16:23:19\"")
                .replace("3600.000000000", "\"PT2H\"");
        Tag parsed = TagSerializer.fromJson(iso);
        assertThat(parsed.createTime()).isEqualTo(LocalDateTime.of(2026, 11, 29, 16, 23, 19));
        assertThat(parsed.timeRetained()).isEqualTo(Duration.ofHours(2));
        assertThatThrownBy(() -> TagSerializer.fromJson(json.replace("[ 2026, 11, 29, 16, 23, 19, 269250640 ]", "[ 1 ]")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tagCreateTime");
    }

    @Test
    void createReplaceRenameDeleteAndList() throws Exception {
        FileStoreTable table = tableWithSnapshots(3);
        TagManager tags = table.tagManager();
        Snapshot s1 = table.snapshotManager().snapshot(1);
        Snapshot s2 = table.snapshotManager().snapshot(2);
        Snapshot s3 = table.snapshotManager().snapshot(3);
        tags.create("b", s3, null);
        tags.create("a", s2, Duration.ofMinutes(5));
        tags.create("z", s1, null);
        tags.create("10", s2, null);
        assertThat(tags.tags()).extracting(TagManager.NamedTag::name).containsExactly("z", "10", "a", "b");
        assertThat(tags.taggedSnapshots()).extracting(Snapshot::id).containsExactly(1L, 2L, 3L);
        assertThat(tags.taggedSnapshotsSupplier().get()).isEqualTo(List.of(s1, s2, s3));

        assertThatThrownBy(() -> tags.create("a", s1, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Cannot create tag 'a'").hasMessageContaining("already exists");
        assertThatThrownBy(() -> tags.create("  ", s1, null)).hasMessageContaining("must not be blank");
        assertThatThrownBy(() -> tags.replace("nope", s1, null)).hasMessageContaining("does not exist");

        tags.replace("a", s1, null);
        assertThat(tags.tagOrThrow("a")).isEqualTo(Tag.of(s1));
        tags.rename("a", "c");
        assertThat(tags.exists("a")).isFalse();
        assertThat(tags.tagOrThrow("c").snapshot().id()).isEqualTo(1);
        assertThatThrownBy(() -> tags.rename("c", "b")).hasMessageContaining("tag 'b' already exists");
        assertThatThrownBy(() -> tags.rename("a", "d")).hasMessageContaining("'a' of table").hasMessageContaining("does not exist");

        assertThat(tags.delete("c")).isTrue();
        assertThat(tags.delete("c")).isFalse();
        assertThat(tags.names()).containsExactly("10", "b", "z");
        // deleting a tag leaves the snapshot and its files alone
        assertThat(table.snapshotManager().snapshotExists(1)).isTrue();
        assertThat(TestTables.readAll(table.copy(java.util.Map.of("scan.snapshot-id", "1")))).hasSize(2);
    }

    @Test
    void expireByRetentionAndByCreationTime() throws Exception {
        FileStoreTable table = tableWithSnapshots(1);
        TagManager tags = table.tagManager();
        Snapshot s1 = table.snapshotManager().snapshot(1);
        LocalDateTime now = LocalDateTime.now();
        tags.write("old", new Tag(s1, now.minusHours(2), Duration.ofHours(1)));
        tags.write("young", new Tag(s1, now.minusMinutes(2), Duration.ofHours(1)));
        tags.create("forever", s1, null);

        assertThat(tags.expire(now, null)).containsExactly("old");
        assertThat(tags.names()).containsExactly("forever", "young");
        // older_than also expires tags without retention, by their file's time
        assertThat(tags.expire(now, now.minusDays(1))).isEmpty();
        assertThat(tags.expire(now, now.plusMinutes(1))).containsExactlyInAnyOrder("forever", "young");
        assertThat(tags.names()).isEmpty();
    }

    @Test
    void aCorruptTagFileIsReportedWithItsName() throws Exception {
        FileStoreTable table = tableWithSnapshots(1);
        Files.createDirectories(java.nio.file.Path.of(dir.toString(), "db.db/t/tag"));
        Files.write(java.nio.file.Path.of(dir.toString(), "db.db/t/tag/tag-bad"), "{ \"id\" : 1 }".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> table.tagManager().tag("bad")).isInstanceOf(CorruptTagException.class)
                .hasMessageContaining("tag-bad");
        assertThat(table.tagManager().names()).isEqualTo(List.of("bad"));
    }
}
