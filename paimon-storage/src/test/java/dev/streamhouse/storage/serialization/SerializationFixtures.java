package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.deletionvectors.DeletionFile;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.types.DataTypes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Fully determined values for serializer tests and their golden files; never change them. */
final class SerializationFixtures {
    private SerializationFixtures() {}

    static BinaryRow row(String... values) {
        Object[] internal = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            internal[i] = values[i] == null ? null : BinaryString.fromString(values[i]);
        }
        return new BinaryRowConverter(Collections.nCopies(values.length, DataTypes.STRING())).toBinaryRow(internal);
    }

    /** A file with every nullable field set. */
    static DataFileMeta fullFile(String name) {
        return new DataFileMeta(name, 1234, 56, row("a"), row("z"),
                new SimpleStats(row("a"), row("z"), new Long[] {0L}),
                new SimpleStats(row("a", null), row("z", "é"), new Long[] {0L, null}),
                7, 62, 3, 2, List.of("extra-1", "extra-2"), 1_700_000_000_000L, 4L, new byte[] {1, 2, 3},
                FileSource.COMPACT, List.of("k", "v"), "s3://bucket/x/" + name, 100L, List.of("v"));
    }

    /** A file with every nullable field null (and stats with unknown null counts). */
    static DataFileMeta sparseFile(String name) {
        return new DataFileMeta(name, 10, 1, BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, SimpleStats.EMPTY,
                new SimpleStats(BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, null), 0, 0, 0, 0, List.of(), null, null,
                null, null, null, null, null, null);
    }

    /** A message with every increment and both kinds of index file, and one with new files only. */
    static List<CommitMessage> messages() {
        IndexFileMeta hash = new IndexFileMeta(IndexFileMeta.HASH_INDEX, "index-1", 400, 100, null, null);
        IndexFileMeta dv = new IndexFileMeta(IndexFileMeta.DELETION_VECTORS_INDEX, "index-2", 90, 2,
                List.of(new DeletionVectorMeta("data-1", 1, 20, 3L), new DeletionVectorMeta("data-2", 21, 30, null)),
                "s3://bucket/index-2");
        CommitMessage full = new CommitMessage(row("2024-01-01"), 3, -1,
                new DataIncrement(List.of(fullFile("data-1"), sparseFile("data-2")), List.of(sparseFile("old-1")),
                        List.of(sparseFile("changelog-1")), List.of(hash, dv), List.of(hash)),
                new CompactIncrement(List.of(fullFile("before-1")), List.of(fullFile("after-1")),
                        List.of(sparseFile("changelog-2"))));
        CommitMessage plain = CommitMessage.ofNewFiles(BinaryRow.EMPTY_ROW, 0, 4, List.of(sparseFile("data-3")));
        return List.of(full, plain);
    }

    /**
     * Version 2's additions: {@link #messages()} with a compaction that also replaced a bucket's
     * deletion-vector index file.
     */
    static List<CommitMessage> messagesWithCompactIndexFiles() {
        IndexFileMeta oldDv = new IndexFileMeta(IndexFileMeta.DELETION_VECTORS_INDEX, "index-3", 25, 1,
                List.of(new DeletionVectorMeta("before-1", 1, 20, 4L)), null);
        IndexFileMeta newDv = new IndexFileMeta(IndexFileMeta.DELETION_VECTORS_INDEX, "index-4", 49, 2,
                List.of(new DeletionVectorMeta("after-1", 1, 20, 1L), new DeletionVectorMeta("data-9", 25, 20, 2L)),
                null);
        CommitMessage first = messages().get(0);
        CompactIncrement c = first.compactIncrement();
        CommitMessage withIndex = new CommitMessage(first.partition(), first.bucket(), first.totalBuckets(),
                first.dataIncrement(), new CompactIncrement(c.compactBefore(), c.compactAfter(), c.changelogFiles(),
                        List.of(newDv), List.of(oldDv)));
        return List.of(withIndex, messages().get(1));
    }

    /** A delta split of snapshot 7, partition dt='2024-01-01', bucket 3 of 4, with a full and a sparse file. */
    static DataSplit split() {
        return new DataSplit(7, row("2024-01-01"), 3, 4, List.of(fullFile("data-1"), sparseFile("data-2")), true,
                true);
    }

    /**
     * A full split of snapshot 9, partition dt='2024-01-02', bucket 1 of 4, with three files: the first
     * and the last with a deletion vector (one with a known cardinality, one without), the middle one
     * without.
     */
    static DataSplit splitWithDeletionFiles() {
        return new DataSplit(9, row("2024-01-02"), 1, 4,
                List.of(fullFile("data-1"), sparseFile("data-2"), sparseFile("data-3")), true, false,
                Arrays.asList(new DeletionFile("file:/warehouse/db.db/t/index/index-5f0c-0", 1, 22, 3L), null,
                        new DeletionFile("s3://bucket/index/index-5f0c-1", 31, 48, null)));
    }

    /**
     * A diff split of snapshot 11, partition dt='2024-01-03', bucket 2 of 4: one file the end snapshot added,
     * two files of the start snapshot it no longer has.
     */
    static DataSplit diffSplit() {
        return new DataSplit(11, row("2024-01-03"), 2, 4, List.of(fullFile("data-4")), false, false, null,
                List.of(sparseFile("data-1"), fullFile("data-2")));
    }

    /** The bytes of a golden file in {@code golden/} (hex, one line). */
    static byte[] golden(String name) throws IOException {
        try (InputStream in = SerializationFixtures.class.getResourceAsStream("/golden/" + name)) {
            assertThat(in).as("golden file " + name).isNotNull();
            return HexFormat.of().parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
        }
    }
}
