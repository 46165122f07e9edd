package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IndexStateTest {
    private static final BinaryRow P1 = new BinaryRowConverter(List.of(DataTypes.INT())).toBinaryRow(new Object[] {1});
    private static final BinaryRow P2 = new BinaryRowConverter(List.of(DataTypes.INT())).toBinaryRow(new Object[] {2});

    private static IndexManifestEntry hash(FileKind kind, BinaryRow p, int bucket, String name) {
        return new IndexManifestEntry(kind, p, bucket, new IndexFileMeta(IndexFileMeta.HASH_INDEX, name, 12, 3, null, null));
    }

    @Test
    void aNewIndexFileReplacesTheOldOneOfItsBucket() {
        List<IndexManifestEntry> previous = List.of(
                hash(FileKind.ADD, P1, 0, "a"), hash(FileKind.ADD, P1, 1, "b"), hash(FileKind.ADD, P2, 0, "c"));
        List<IndexManifestEntry> next = IndexState.apply(previous, List.of(
                hash(FileKind.DELETE, P1, 0, "a"), hash(FileKind.ADD, P1, 0, "a2"), hash(FileKind.ADD, P2, 3, "d")));
        assertThat(next).extracting(e -> e.indexFile().fileName()).containsExactlyInAnyOrder("a2", "b", "c", "d");
        assertThat(next).allMatch(e -> e.kind() == FileKind.ADD);
    }

    @Test
    void anAddWithoutDeleteStillReplacesByBucket() {
        List<IndexManifestEntry> next = IndexState.apply(List.of(hash(FileKind.ADD, P1, 0, "a")),
                List.of(hash(FileKind.ADD, P1, 0, "a2")));
        assertThat(next).extracting(e -> e.indexFile().fileName()).containsExactly("a2");
    }

    @Test
    void storedDeletesAreRejected() {
        assertThatThrownBy(() -> IndexState.apply(List.of(hash(FileKind.DELETE, P1, 0, "a")), List.of()))
                .hasMessageContaining("only ADDs");
    }
}
