package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.deletionvectors.DeletionFile;
import dev.streamhouse.storage.table.source.DataSplit;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static dev.streamhouse.storage.serialization.SerializationFixtures.diffSplit;
import static dev.streamhouse.storage.serialization.SerializationFixtures.golden;
import static dev.streamhouse.storage.serialization.SerializationFixtures.split;
import static dev.streamhouse.storage.serialization.SerializationFixtures.splitWithDeletionFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataSplitSerializerTest {
    private static final DataSplitSerializer SERIALIZER = DataSplitSerializer.INSTANCE;

    @Test
    void splitsRoundTripWithEveryField() throws IOException {
        DataSplit delta = split();
        DataSplit full = new DataSplit(3, BinaryRow.EMPTY_ROW, 0, -1, List.of(), false);
        DataSplit withVectors = splitWithDeletionFiles();
        DataSplit noneOfItsFilesHasOne = new DataSplit(4, BinaryRow.EMPTY_ROW, 0, 1,
                withVectors.files(), true, false, Collections.nCopies(3, null));
        for (DataSplit s : List.of(delta, full, withVectors, noneOfItsFilesHasOne)) {
            DataSplit back = SERIALIZER.deserialize(SERIALIZER.serialize(s));
            assertThat(back).isEqualTo(s);
            assertThat(back.deletionFiles()).isEqualTo(s.deletionFiles());
        }
        assertThat(SERIALIZER.deserialize(SERIALIZER.serialize(delta)).delta()).isTrue();
        assertThat(SERIALIZER.deserialize(SERIALIZER.serialize(full)).rawConvertible()).isFalse();
        assertThat(SERIALIZER.deserialize(SERIALIZER.serialize(full)).deletionFiles()).isNull();
        assertThat(SERIALIZER.deserialize(SERIALIZER.serialize(noneOfItsFilesHasOne)).deletionFiles())
                .hasSize(3).containsOnlyNulls();
        assertThat(SERIALIZER.deserialize(SERIALIZER.serialize(withVectors)).deletionFiles()).containsExactly(
                new DeletionFile("file:/warehouse/db.db/t/index/index-5f0c-0", 1, 22, 3L), null,
                new DeletionFile("s3://bucket/index/index-5f0c-1", 31, 48, null));
    }

    /**
     * Bytes written by version 1, before splits carried deletion files: they read back as splits that
     * carry none. If this fails after a change, the change broke restoring checkpoints that hold
     * splits: add a version instead.
     */
    @Test
    void version1WrittenOnceStaysReadable() throws IOException {
        byte[] golden = golden("data-split-v1.hex");
        DataSplit back = SERIALIZER.deserialize(golden);
        assertThat(back).isEqualTo(split());
        assertThat(back.deletionFiles()).isNull();
        // The same split in version 2 is the version 1 form with the new version and "no deletion files".
        byte[] v2 = SERIALIZER.serialize(split());
        byte[] expected = Arrays.copyOf(golden, golden.length + 1);
        ByteBuffer.wrap(expected).putInt(0, 2);
        assertThat(v2).isEqualTo(expected);
    }

    /** Bytes written by version 2; see {@link #version1WrittenOnceStaysReadable()}. */
    @Test
    void version2WrittenOnceStaysReadable() throws IOException {
        byte[] golden = golden("data-split-v2.hex");
        assertThat(SERIALIZER.deserialize(golden)).isEqualTo(splitWithDeletionFiles());
        assertThat(SERIALIZER.serialize(splitWithDeletionFiles())).isEqualTo(golden);
    }

    /**
     * Bytes written by version 3, which added the before-files of diff splits; splits that are not diff
     * splits are still written as version 2 (checked above).
     */
    @Test
    void version3WrittenOnceStaysReadable() throws IOException {
        assertThat(SERIALIZER.version()).isEqualTo(3);
        byte[] golden = golden("data-split-v3.hex");
        DataSplit back = SERIALIZER.deserialize(golden);
        assertThat(back).isEqualTo(diffSplit());
        assertThat(back.diff()).isTrue();
        assertThat(back.beforeFiles()).extracting(f -> f.fileName()).containsExactly("data-1", "data-2");
        assertThat(SERIALIZER.serialize(diffSplit())).isEqualTo(golden);
        assertThat(ByteBuffer.wrap(SERIALIZER.serialize(split())).getInt()).isEqualTo(2);
    }

    @Test
    void unknownVersionsAndCorruptBytesAreRefused() {
        byte[] bytes = SERIALIZER.serialize(split());
        byte[] newer = Arrays.copyOf(bytes, bytes.length);
        newer[3] = 9;
        assertThatThrownBy(() -> SERIALIZER.deserialize(newer))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serialization version 9")
                .hasMessageContaining("reads versions 1 to 3");
        assertThatThrownBy(() -> SERIALIZER.deserialize(Arrays.copyOf(bytes, bytes.length + 1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("snapshot 7, bucket 3")
                .hasMessageContaining("1 unexpected trailing bytes");
        assertThatThrownBy(() -> SERIALIZER.deserialize(Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(IOException.class);
        byte[] withVectors = SERIALIZER.serialize(splitWithDeletionFiles());
        assertThatThrownBy(() -> SERIALIZER.deserialize(Arrays.copyOf(withVectors, withVectors.length - 1)))
                .isInstanceOf(IOException.class);
    }

    @Test
    void deletionFilesThatDoNotMatchTheFilesAreRefused() {
        // Claim two deletion files for the three data files, and leave out the last entry.
        DataSplit split = splitWithDeletionFiles();
        byte[] bytes = SERIALIZER.serialize(split);
        DataSplit noDeletionFiles = new DataSplit(split.snapshotId(), split.partition(), split.bucket(),
                split.totalBuckets(), split.files(), split.rawConvertible(), false, null);
        int countAt = SERIALIZER.serialize(noDeletionFiles).length; // after its "present" flag
        assertThat(ByteBuffer.wrap(bytes).getInt(countAt)).isEqualTo(3);
        String lastPath = split.deletionFiles().get(2).path();
        int lastEntry = 1 + 4 + lastPath.length() + 8 + 8 + 1; // present, path, offset, length, no cardinality
        byte[] twoOfThree = Arrays.copyOf(bytes, bytes.length - lastEntry);
        ByteBuffer.wrap(twoOfThree).putInt(countAt, 2);
        assertThatThrownBy(() -> SERIALIZER.deserialize(twoOfThree))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("snapshot 9, bucket 1")
                .hasMessageContaining("2 deletion files for 3 data files");
    }
}
