package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.IntervalPartition;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.SortedRun;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.reader.ConcatRecordReader;
import dev.streamhouse.storage.reader.ConcatRecordReader.ReaderSupplier;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.reader.TransformingRecordReader;

import java.util.ArrayList;
import java.util.List;

/**
 * Readers over the files of one (partition, bucket) of a primary-key table.
 *
 * <ul>
 *   <li>{@link #readMerged}: merge-on-read. The files are split into key-disjoint sections
 *       ({@link IntervalPartition}); each section's sorted runs are merged with a
 *       {@link SortMergeReader}; sections are read one after the other, in key order, opening a
 *       section's files only when it is reached. The result holds one merged version per key and may
 *       include retractions; wrap it in a {@link DropRetractReader} for table reads.
 *   <li>{@link #readSection}: one section (e.g. a compaction unit), same semantics.
 *   <li>{@link #readRows}: what a table read returns, the merged value rows without retractions.
 *   <li>{@link #readRowsWithRetractions}: the merged value rows including retractions (the audit log).
 * </ul>
 * Files whose rows need no merging ({@link RawReadRule#rawConvertible}) are read raw by the table read
 * itself, as column vectors, not through this class.
 *
 * Value rows hold the reader factory's projection. Thread-safe for creating readers; each reader is
 * single-threaded.
 */
public final class MergeTreeReaders {
    private final KeyValueFileReaderFactory readerFactory;
    private final MergeFunctionFactory mergeFunctionFactory;
    private final VersionOrder versionOrder;
    private final KeyComparator keyComparator;
    private final KeyRowComparator mergeKeyComparator;

    /**
     * @param versionOrder over value rows of the reader factory's projection; see
     *     {@link MergeReadProjection#versionOrder()}
     */
    public MergeTreeReaders(KeyValueFileReaderFactory readerFactory, MergeFunctionFactory mergeFunctionFactory,
            VersionOrder versionOrder) {
        this.readerFactory = readerFactory;
        this.mergeFunctionFactory = mergeFunctionFactory;
        this.versionOrder = versionOrder;
        this.keyComparator = new KeyComparator(readerFactory.layout().keyType());
        this.mergeKeyComparator = new KeyRowComparator(readerFactory.layout().keyType());
    }

    /** Merge-on-read of all {@code files} of one bucket: one merged version per key, in key order. */
    public RecordReader<KeyValue> readMerged(BinaryRow partition, int bucket, List<DataFileMeta> files) {
        List<ReaderSupplier<KeyValue>> sections = new ArrayList<>();
        for (List<SortedRun> section : new IntervalPartition(files, keyComparator).partition()) {
            sections.add(() -> readSection(partition, bucket, section));
        }
        return new ConcatRecordReader<>(sections);
    }

    /**
     * Merges the sorted runs of one section. Each run's files must be key-disjoint and in key order; the
     * runs may overlap each other. Files are opened lazily within each run. A section of one run is
     * read as it is when the merge engine keeps single versions unchanged (its keys are unique).
     */
    public RecordReader<KeyValue> readSection(BinaryRow partition, int bucket, List<SortedRun> section) {
        if (section.size() == 1 && mergeFunctionFactory.keepsSingleVersion()) {
            return readRun(partition, bucket, section.get(0).files());
        }
        List<RecordReader<KeyValue>> runs = new ArrayList<>(section.size());
        for (SortedRun run : section) {
            runs.add(readRun(partition, bucket, run.files()));
        }
        return new SortMergeReader(runs, mergeKeyComparator, versionOrder, mergeFunctionFactory.create());
    }

    /**
     * Merges the sorted runs of one section with {@code mergeFunction}, which sees every key, also
     * keys with a single version and sections of a single run (a compaction that looks up older
     * versions of each key it writes needs every key).
     */
    public RecordReader<KeyValue> readSection(BinaryRow partition, int bucket, List<SortedRun> section,
            MergeFunction mergeFunction) {
        List<RecordReader<KeyValue>> runs = new ArrayList<>(section.size());
        for (SortedRun run : section) {
            runs.add(readRun(partition, bucket, run.files()));
        }
        return new SortMergeReader(runs, mergeKeyComparator, versionOrder, mergeFunction);
    }

    /** The order of a key's versions that merges follow. */
    public VersionOrder versionOrder() {
        return versionOrder;
    }

    private RecordReader<KeyValue> readRun(BinaryRow partition, int bucket, List<DataFileMeta> files) {
        List<ReaderSupplier<KeyValue>> suppliers = new ArrayList<>(files.size());
        for (DataFileMeta f : files) {
            suppliers.add(() -> readerFactory.createReader(partition, bucket, f));
        }
        return new ConcatRecordReader<>(suppliers);
    }

    /**
     * The rows a table read returns: {@link #readMerged} without retractions, each value row with the
     * kind of its version (+I or +U).
     */
    public RecordReader<InternalRow> readRows(BinaryRow partition, int bucket, List<DataFileMeta> files) {
        return new DropRetractReader(readMerged(partition, bucket, files));
    }

    /**
     * Like {@link #readRows}, but keys whose merged version is a retraction are returned too, with that
     * kind (-U or -D), as the audit log of a table shows them.
     */
    public RecordReader<InternalRow> readRowsWithRetractions(BinaryRow partition, int bucket,
            List<DataFileMeta> files) {
        return new TransformingRecordReader<>(readMerged(partition, bucket, files), null, DropRetractReader::valueOf);
    }
}
