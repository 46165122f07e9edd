package dev.streamhouse.storage.bucket.dynamic;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexFileMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A writer's hash index of one bucket: restored from its file, a new complete file per change. */
class HashIndexMaintainerTest {
    @TempDir
    java.nio.file.Path tmp;

    @Test
    void writesACompleteFileOnlyWhenANewHashArrives() throws Exception {
        HashIndexFile file = new HashIndexFile(LocalFileIO.INSTANCE, new Path(tmp.toString()));
        IndexFileMeta old = file.write(new int[] {5, -7, 9});
        HashIndexMaintainer m = HashIndexMaintainer.restore(file, BinaryRow.EMPTY_ROW, 3, old);
        assertThat(m.size()).isEqualTo(3);

        m.notifyKey(9);
        m.notifyKey(-7);
        assertThat(m.hasChanges()).isFalse();
        assertThat(m.prepareNewFile()).isNull();

        m.notifyKey(11);
        m.notifyKey(11);
        IndexChange change = m.prepareNewFile();
        assertThat(change.bucket()).isEqualTo(3);
        assertThat(change.replacedFile()).isSameAs(old);
        assertThat(file.read(change.newFile())).containsExactly(-7, 5, 9, 11);

        // Until committed, the old file stays current: a repeated prepare replaces it again.
        assertThat(m.prepareNewFile().replacedFile()).isSameAs(old);
        m.committed(change);
        assertThat(m.hasChanges()).isFalse();
        m.notifyKey(1);
        IndexChange next = m.prepareNewFile();
        assertThat(next.replacedFile()).isEqualTo(change.newFile());
        assertThat(file.read(next.newFile())).containsExactly(-7, 1, 5, 9, 11);
        assertThatThrownBy(() -> m.committed(change)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBucketWithoutFileStartsEmptyAndHoldsManyHashes() throws Exception {
        HashIndexFile file = new HashIndexFile(LocalFileIO.INSTANCE, new Path(tmp.toString()));
        HashIndexMaintainer m = HashIndexMaintainer.restore(file, BinaryRow.EMPTY_ROW, 0, null);
        for (int h = -5000; h < 5000; h++) {
            m.notifyKey(h * 7919);
        }
        IndexChange change = m.prepareNewFile();
        assertThat(change.replacedFile()).isNull();
        assertThat(change.newFile().rowCount()).isEqualTo(10_000);
        assertThat(m.size()).isEqualTo(10_000);
    }
}
