package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.mergetree.SortedRun;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.mergetree.io.KeyValueFileWriterFactory;
import dev.streamhouse.storage.mergetree.io.RollingKeyValueFileWriter;
import dev.streamhouse.storage.mergetree.read.MergeTreeReaders;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites sections of one bucket with real files: each section is merge-read (the merge engine
 * combines versions of a key) and written by a rolling writer on the output level. Retractions are
 * kept unless {@code dropDelete} says nothing older exists below the output.
 *
 * <p>For engines that keep each key once above level 0 (first-row), a rewriter made
 * {@link #excludingKeysOf for a compaction} leaves out the keys that already live in the sorted runs
 * the compaction does not touch, and rewrites (instead of moving) the level-0 files it is asked to
 * upgrade, so the levels above 0 never share a key.
 */
public final class MergeTreeCompactRewriter implements CompactRewriter {
    private final BinaryRow partition;
    private final int bucket;
    private final MergeTreeReaders readers;
    private final KeyValueFileWriterFactory writers;
    private final FileIO fileIO;
    private final DataFilePathFactory pathFactory;
    /** Key-only readers of the runs outside a compaction, or null when the engine allows shared keys. */
    private final KeyValueFileReaderFactory keyReaders;
    private final List<DataFileMeta> outside;

    public MergeTreeCompactRewriter(BinaryRow partition, int bucket, MergeTreeReaders readers,
            KeyValueFileWriterFactory writers, FileIO fileIO, DataFilePathFactory pathFactory) {
        this(partition, bucket, readers, writers, fileIO, pathFactory, null, List.of());
    }

    /**
     * A rewriter for an engine that keeps each key once above level 0.
     *
     * @param keyReaders reads the keys of this bucket's files (an empty value projection is enough)
     */
    public static MergeTreeCompactRewriter keepingKeysUnique(BinaryRow partition, int bucket, MergeTreeReaders readers,
            KeyValueFileWriterFactory writers, FileIO fileIO, DataFilePathFactory pathFactory,
            KeyValueFileReaderFactory keyReaders) {
        return new MergeTreeCompactRewriter(partition, bucket, readers, writers, fileIO, pathFactory, keyReaders,
                List.of());
    }

    private MergeTreeCompactRewriter(BinaryRow partition, int bucket, MergeTreeReaders readers,
            KeyValueFileWriterFactory writers, FileIO fileIO, DataFilePathFactory pathFactory,
            KeyValueFileReaderFactory keyReaders, List<DataFileMeta> outside) {
        this.partition = partition;
        this.bucket = bucket;
        this.readers = readers;
        this.writers = writers;
        this.fileIO = fileIO;
        this.pathFactory = pathFactory;
        this.keyReaders = keyReaders;
        this.outside = List.copyOf(outside);
    }

    @Override
    public CompactRewriter excludingKeysOf(List<DataFileMeta> outsideFiles) {
        if (keyReaders == null) {
            return this;
        }
        return new MergeTreeCompactRewriter(partition, bucket, readers, writers, fileIO, pathFactory, keyReaders,
                outsideFiles);
    }

    @Override
    public CompactResult upgrade(int outputLevel, DataFileMeta file) throws Exception {
        if (file.level() == 0 && !outside.isEmpty()) {
            return rewrite(outputLevel, false, List.of(List.of(SortedRun.of(file))));
        }
        return CompactRewriter.super.upgrade(outputLevel, file);
    }

    @Override
    public CompactResult rewrite(int outputLevel, boolean dropDelete, List<List<SortedRun>> sections) throws Exception {
        List<DataFileMeta> before = new ArrayList<>();
        RollingKeyValueFileWriter writer = writers.newRollingWriter(outputLevel, FileSource.COMPACT);
        try (ExistingKeyFilter existing = outside.isEmpty() ? null
                : new ExistingKeyFilter(outside, new KeyRowComparator(keyReaders.layout().keyType()), keyReaders,
                        partition, bucket)) {
            for (List<SortedRun> section : sections) {
                for (SortedRun run : section) {
                    before.addAll(run.files());
                }
                try (RecordReader<KeyValue> reader = readers.readSection(partition, bucket, section)) {
                    RecordIterator<KeyValue> batch;
                    while ((batch = reader.readBatch()) != null) {
                        KeyValue kv;
                        while ((kv = batch.next()) != null) {
                            if (!(dropDelete && kv.isRetract()) && (existing == null || !existing.contains(kv.key()))) {
                                writer.write(kv);
                            }
                        }
                        batch.releaseBatch();
                        if (Thread.currentThread().isInterrupted()) {
                            throw new InterruptedException("Compaction of bucket " + bucket + " was cancelled");
                        }
                    }
                }
            }
            return new CompactResult(before, writer.close());
        } catch (Exception | Error e) {
            writer.abort();
            throw e;
        }
    }

    @Override
    public void discardRewritten(List<DataFileMeta> written) {
        for (DataFileMeta f : written) {
            fileIO.deleteQuietly(pathFactory.toPath(f.fileName()));
        }
    }
}
