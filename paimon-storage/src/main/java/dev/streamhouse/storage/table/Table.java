package dev.streamhouse.storage.table;

import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.sink.WriteContext;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.types.RowType;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table of the warehouse, at the schema it was loaded with. Reads go through
 * {@link #newReadBuilder()}; writes through {@link #newWrite()} and a commit; its metadata through
 * the system tables ({@code dev.streamhouse.storage.table.system.SystemTables}). Tables are
 * serializable, so engines can ship them to their tasks.
 */
public interface Table extends java.io.Serializable {

    /** {@code database.table}. */
    String fullName();

    TableSchema schema();

    default RowType rowType() {
        return schema().rowType();
    }

    default List<String> partitionKeys() {
        return schema().partitionKeys();
    }

    default List<String> primaryKeys() {
        return schema().primaryKeys();
    }

    default Map<String, String> options() {
        return schema().options();
    }

    Optional<Snapshot> latestSnapshot();

    /**
     * Snapshot {@code id}, or empty if it does not exist (not committed yet, or expired).
     *
     * @throws java.io.UncheckedIOException if the snapshot file cannot be read
     */
    Optional<Snapshot> snapshot(long id);

    /**
     * The partitions of the latest snapshot that have live files, with their totals, in the order the
     * manifests list them; empty for an empty table (and one row, of no values, for an unpartitioned
     * table with files).
     *
     * @throws java.io.UncheckedIOException if the manifests cannot be read
     */
    List<Partition> partitions();

    ReadBuilder newReadBuilder();

    /** The only writer of a job; hand its messages to a commit. */
    default TableWrite newWrite() {
        return newWrite(WriteContext.single());
    }

    /**
     * A writer that is one of several parallel writers of a job (see {@link WriteContext}: which
     * dynamic-bucket assigner it is, whether it ignores the files already in the table).
     *
     * @throws UnsupportedTableFeatureException if the table uses a feature writes do not support yet
     */
    TableWrite newWrite(WriteContext context);

    /**
     * The dynamic-bucket assigner {@code context.assigner()} of this table, for a job that assigns
     * buckets ahead of its writers (see {@link dev.streamhouse.storage.table.sink.TableBucketAssigner});
     * the writers use {@code context.withAssignedBuckets()}. With {@code context.ignoresPreviousFiles()}
     * every partition starts empty.
     *
     * @throws UnsupportedOperationException if the table is not a primary-key table with dynamic buckets
     *     ({@code bucket} = -1) whose primary key holds every partition key
     */
    default dev.streamhouse.storage.table.sink.TableBucketAssigner newBucketAssigner(WriteContext context) {
        throw new UnsupportedOperationException("Table " + fullName() + " has no dynamic buckets to assign");
    }

    /**
     * A writer for INSERT OVERWRITE; hand its messages to an overwrite commit
     * ({@link TableCommit#overwrite}, {@link TableCommit#overwriteDynamicPartitions}). It ignores the
     * files already in the table: every bucket starts empty (no levels, sequence numbers or hash index
     * restored), and partitions may be written with the table's current bucket count even if their
     * files have another one (rescaling).
     */
    default TableWrite newOverwriteWrite() {
        return newWrite(WriteContext.single().ignoringPreviousFiles());
    }

    /** A commit for a batch job (one commit, fresh commit user). */
    BatchTableCommit newBatchCommit();

    /** A commit for a streaming job; keep the commit user stable across restarts of the job. */
    TableCommit newStreamCommit(String commitUser);

    /** This table with extra options for this use only (not persisted), e.g. from SQL hints. */
    Table copy(Map<String, String> dynamicOptions);

    /**
     * This table as of its schema version {@code schemaId} (an earlier one, or the current one), for a
     * job that writes the table while its schema changes: rows made under an earlier schema are written
     * as what they are, and later writes continue them ({@code WriteContext.succeeding}).
     *
     * @throws IllegalArgumentException if the table has no such schema
     * @throws UnsupportedOperationException if this kind of table has no schema versions
     */
    default Table atSchema(long schemaId) {
        throw new UnsupportedOperationException("Table " + fullName() + " has no schema versions");
    }
}
