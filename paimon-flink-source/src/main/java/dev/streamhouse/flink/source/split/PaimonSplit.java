package dev.streamhouse.flink.source.split;

import dev.streamhouse.storage.table.source.DataSplit;
import org.apache.flink.api.connector.source.SourceSplit;

import java.util.Objects;

/**
 * A unit of work for one source reader: the files of one (partition, bucket) of one snapshot, as a
 * storage {@link DataSplit}, plus how many of its records were already emitted before the last
 * checkpoint. Reading a split always yields its records in the same order (same files, same merge), so
 * a restored reader skips {@link #recordsToSkip()} records and continues with the next one.
 *
 * <p>Immutable. The split id is unique within one read (the enumerator numbers the splits of a plan).
 */
public final class PaimonSplit implements SourceSplit {
    private final String splitId;
    private final DataSplit dataSplit;
    private final long recordsToSkip;

    public PaimonSplit(String splitId, DataSplit dataSplit, long recordsToSkip) {
        if (recordsToSkip < 0) {
            throw new IllegalArgumentException("Cannot create split " + splitId + ": records to skip is negative ("
                    + recordsToSkip + ")");
        }
        this.splitId = Objects.requireNonNull(splitId, "splitId");
        this.dataSplit = Objects.requireNonNull(dataSplit, "dataSplit");
        this.recordsToSkip = recordsToSkip;
    }

    /** A split nothing of which was read yet. */
    public static PaimonSplit fresh(String splitId, DataSplit dataSplit) {
        return new PaimonSplit(splitId, dataSplit, 0);
    }

    @Override
    public String splitId() {
        return splitId;
    }

    public DataSplit dataSplit() {
        return dataSplit;
    }

    /** Records of this split already emitted (before the checkpoint this split was restored from). */
    public long recordsToSkip() {
        return recordsToSkip;
    }

    /** This split after {@code emitted} of its records were emitted in total. */
    public PaimonSplit withRecordsToSkip(long emitted) {
        return emitted == recordsToSkip ? this : new PaimonSplit(splitId, dataSplit, emitted);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PaimonSplit)) {
            return false;
        }
        PaimonSplit that = (PaimonSplit) o;
        return recordsToSkip == that.recordsToSkip && splitId.equals(that.splitId) && dataSplit.equals(that.dataSplit);
    }

    @Override
    public int hashCode() {
        return Objects.hash(splitId, dataSplit, recordsToSkip);
    }

    @Override
    public String toString() {
        return "PaimonSplit{" + splitId + ", snapshot " + dataSplit.snapshotId() + ", partition "
                + dataSplit.partition() + ", bucket " + dataSplit.bucket() + ", " + dataSplit.files().size()
                + " files, skip " + recordsToSkip + "}";
    }
}
