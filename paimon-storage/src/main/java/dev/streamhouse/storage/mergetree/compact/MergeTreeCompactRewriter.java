package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.SortedRun;
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
 * <p>Tables whose compactions look up older versions (first-row, lookup changelog) use
 * {@link LookupCompactRewriter} instead.
 */
public final class MergeTreeCompactRewriter implements CompactRewriter {
    private final BinaryRow partition;
    private final int bucket;
    private final MergeTreeReaders readers;
    private final KeyValueFileWriterFactory writers;
    private final FileIO fileIO;
    private final DataFilePathFactory pathFactory;

    public MergeTreeCompactRewriter(BinaryRow partition, int bucket, MergeTreeReaders readers,
            KeyValueFileWriterFactory writers, FileIO fileIO, DataFilePathFactory pathFactory) {
        this.partition = partition;
        this.bucket = bucket;
        this.readers = readers;
        this.writers = writers;
        this.fileIO = fileIO;
        this.pathFactory = pathFactory;
    }

    @Override
    public CompactResult rewrite(int outputLevel, boolean dropDelete, List<List<SortedRun>> sections) throws Exception {
        List<DataFileMeta> before = new ArrayList<>();
        RollingKeyValueFileWriter writer = writers.newRollingWriter(outputLevel, FileSource.COMPACT);
        try {
            for (List<SortedRun> section : sections) {
                for (SortedRun run : section) {
                    before.addAll(run.files());
                }
                try (RecordReader<KeyValue> reader = readers.readSection(partition, bucket, section)) {
                    RecordIterator<KeyValue> batch;
                    while ((batch = reader.readBatch()) != null) {
                        KeyValue kv;
                        while ((kv = batch.next()) != null) {
                            if (!(dropDelete && kv.isRetract())) {
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
