package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A snapshot becomes visible only through the manager's publisher, whose answer decides the commit. */
class SnapshotPublisherTest {
    @TempDir
    java.nio.file.Path dir;

    private static Snapshot snapshot(long id) {
        return new Snapshot(3, id, 0, "base-" + id, null, "delta-" + id, null, null, null, null, "user", id,
                CommitKind.APPEND, 1000L * id, Map.of(), null, null, null, null, null, null, null);
    }

    @Test
    void theManagerPublishesThroughItsPublisher() throws Exception {
        Path root = new Path(dir.toString());
        List<String> published = new ArrayList<>();
        SnapshotPublisher recording = (file, content) -> {
            published.add(file.name());
            return LocalFileIO.INSTANCE.createIfAbsent(file, content);
        };
        SnapshotManager snapshots = new SnapshotManager(LocalFileIO.INSTANCE, root, recording);
        assertThat(snapshots.tryCommit(snapshot(1))).isTrue();
        assertThat(snapshots.tryCommit(snapshot(1))).as("the id is taken").isFalse();
        assertThat(published).containsExactly("snapshot-1", "snapshot-1");
        assertThat(snapshots.latestSnapshotId()).isEqualTo(1L);

        SnapshotManager losing = new SnapshotManager(LocalFileIO.INSTANCE, root, (file, content) -> false);
        assertThat(losing.tryCommit(snapshot(2))).as("a publisher that loses every race").isFalse();
        assertThat(losing.snapshotExists(2)).isFalse();
    }
}
