package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.read.DeletionVector;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;

/**
 * Reads the rows of one {@link DataSplit} with a fixed projection and filter: the one seam between a
 * {@link TableRead} and the data files. Two kinds exist: a raw read, file after file without merging
 * ({@link RawSplitRead}), and a merge read over the sorted runs of a bucket ({@link MergeSplitRead}).
 * Both open files through {@link dev.streamhouse.storage.read.DataFileReaders} with one
 * {@link dev.streamhouse.storage.read.DataFileReadPlan} per schema version (schema evolution by field
 * id), read them as batches of column vectors, and skip the rows of each file's
 * {@link dev.streamhouse.storage.read.DeletionVector}.
 *
 * <p>Implementations are thread-safe for creating readers; each reader is single-threaded.
 */
interface SplitRead {

    /**
     * The rows of {@code split}, as {@link TableRead#createReader(Split)} describes them.
     *
     * @param deletionVectors the deleted rows of the split's files ({@link DeletionVector.Source#NONE}
     *     for none)
     */
    RecordReader<InternalRow> createReader(DataSplit split, DeletionVector.Source deletionVectors)
            throws IOException;
}
