package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.maintenance.expire.PostCommitExpiration;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.operation.FileStoreCommit;
import dev.streamhouse.storage.operation.InvalidCommitException;
import dev.streamhouse.storage.operation.ManifestCommittable;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.partition.PartitionSpec;
import dev.streamhouse.storage.partition.PartitionValues;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Commits writers' messages as snapshots under one commit user. Streaming callers pass a
 * monotonically increasing identifier (the checkpoint id) and, after a restart, ask
 * {@link #filterCommitted(List)} which identifiers still need committing. See
 * {@link FileStoreCommit} for the failure types ({@code CommitException} subclasses).
 *
 * <p>Besides {@link #commit} (APPEND, and COMPACT for compaction results) there are the OVERWRITE
 * commits of INSERT OVERWRITE, TRUNCATE TABLE and ALTER TABLE DROP PARTITION
 * ({@link FileStoreCommit#overwrite}): they replace all files of the affected partitions, index files
 * included, by the messages' files in one snapshot. Their messages must come from
 * {@link dev.streamhouse.storage.table.Table#newOverwriteWrite()}, which ignores the files already in
 * the table (so a partition can also be rewritten with a new bucket count).
 */
public class TableCommit implements AutoCloseable {
    private final FileStoreCommit commit;
    private final FileIO fileIO;
    private final TablePaths paths;
    private final RowType partitionType;
    private final String defaultPartitionName;
    private final String tableName;
    private final List<LongConsumer> afterCommit = new ArrayList<>();
    private final PostCommitExpiration expiration;
    private java.util.function.BooleanSupplier snapshotForcing;
    private PartitionRegistry partitionRegistry;

    /** A commit without expiration after its commits. */
    public TableCommit(FileStoreCommit commit, FileIO fileIO, TablePaths paths, RowType partitionType,
            String defaultPartitionName, String tableName) {
        this(commit, fileIO, paths, partitionType, defaultPartitionName, tableName, null);
    }

    /**
     * @param expiration runs after each successful commit (never failing it), or null for none
     * @param partitionType the table's partition columns, in partition-key order
     * @param defaultPartitionName the table's {@code partition.default-name}, which stands for NULL in specs
     */
    public TableCommit(FileStoreCommit commit, FileIO fileIO, TablePaths paths, RowType partitionType,
            String defaultPartitionName, String tableName, PostCommitExpiration expiration) {
        this.commit = commit;
        this.expiration = expiration;
        this.fileIO = fileIO;
        this.paths = paths;
        this.partitionType = partitionType;
        this.defaultPartitionName = defaultPartitionName;
        this.tableName = tableName;
    }

    public String commitUser() {
        return commit.commitUser();
    }

    /**
     * Hands the {@link dev.streamhouse.storage.commit.CommitStats} of each successful commit,
     * overwrite or empty commit to {@code listener} (e.g. a job's commit metrics); it must not throw.
     */
    public TableCommit onCommitStats(java.util.function.Consumer<dev.streamhouse.storage.commit.CommitStats> listener) {
        commit.onCommitStats(listener);
        return this;
    }

    /**
     * Tells {@code listener} what each run of the expiration after commits did (in the thread that ran
     * it: the committing one, or a background one with {@code snapshot.expire.execution-mode = async});
     * nothing when this commit does not expire (e.g. {@code write-only}).
     */
    public TableCommit onExpirationStats(java.util.function.Consumer<dev.streamhouse.storage.metrics.ExpirationStats> listener) {
        if (expiration != null) {
            expiration.onRun(listener);
        }
        return this;
    }

    /**
     * Runs {@code hook} with the identifier after each successful {@link #commit} (table maintenance such
     * as partition expiration); a hook must not throw.
     */
    public TableCommit afterEachCommit(LongConsumer hook) {
        afterCommit.add(hook);
        return this;
    }

    /**
     * Keeps {@code registry} in step with the partitions this commit's snapshots add and drop (after each
     * snapshot landed; see {@link PartitionRegistry} for failures).
     */
    public TableCommit registeringPartitionsIn(PartitionRegistry registry) {
        this.partitionRegistry = registry;
        return this;
    }

    /** Registers the partitions of the messages' new files, after their snapshot landed. */
    private void registerPartitions(List<CommitMessage> messages) {
        if (partitionRegistry == null || partitionType.fieldCount() == 0) {
            return;
        }
        Set<BinaryRow> written = new LinkedHashSet<>();
        for (CommitMessage m : messages) {
            if (!m.isEmpty()) {
                written.add(m.partition());
            }
        }
        if (!written.isEmpty()) {
            partitionRegistry.register(written.stream().map(p -> new PartitionRegistry.Partition(
                    paths.renderer().values(p), paths.renderer().render(p))).collect(java.util.stream.Collectors.toList()));
        }
    }

    /** Unregisters dropped partitions (specs as {@link PartitionRegistry#unregister} takes them). */
    private void unregisterPartitions(List<LinkedHashMap<String, String>> specs) {
        if (partitionRegistry != null && partitionType.fieldCount() > 0 && !specs.isEmpty()) {
            partitionRegistry.unregister(specs);
        }
    }

    /**
     * Asks {@code forcing}, from {@link #forceCreatingSnapshot()}, whether a commit without changes
     * should still make a snapshot (automatic tags); it must not throw.
     */
    public TableCommit forcingSnapshotsWhen(java.util.function.BooleanSupplier forcing) {
        this.snapshotForcing = forcing;
        return this;
    }

    /**
     * Whether a streaming committer with nothing to commit should still make a snapshot now
     * ({@link #commitEmpty}), as Apache Paimon 1.3.1's committer does for automatic tags: process-time
     * tags at the end of each period, watermark tags when the snapshot watermark is older than
     * {@code snapshot.watermark-idle-timeout}.
     */
    public boolean forceCreatingSnapshot() {
        return snapshotForcing != null && snapshotForcing.getAsBoolean();
    }

    /**
     * Commits an APPEND snapshot without changes for {@code identifier}, recording {@code watermark}
     * (null for none); then the after-commit steps run as after any commit (tags, expiration).
     */
    public void commitEmpty(long identifier, Long watermark) {
        commit.commit(new ManifestCommittable(identifier, watermark, Map.of(), List.of()), true);
        afterCommit.forEach(h -> h.accept(identifier));
        expireAfterCommit();
    }

    /** Commits the messages as the snapshot(s) of {@code identifier}. */
    public void commit(long identifier, List<CommitMessage> messages) {
        commit.commit(ManifestCommittable.of(identifier, messages));
        registerPartitions(messages);
        afterCommit.forEach(h -> h.accept(identifier));
        expireAfterCommit();
    }

    private void expireAfterCommit() {
        if (expiration != null) {
            expiration.afterCommit();
        }
    }

    /** Commits with a watermark and log offsets. */
    public void commit(long identifier, Long watermark, Map<Integer, Long> logOffsets, List<CommitMessage> messages) {
        commit.commit(new ManifestCommittable(identifier, watermark, logOffsets, messages));
        registerPartitions(messages);
        afterCommit.forEach(h -> h.accept(identifier));
        expireAfterCommit();
    }

    /**
     * INSERT OVERWRITE with a static partition spec: one OVERWRITE snapshot that deletes every file of
     * the partitions matching {@code staticPartition} and adds the messages' files. The empty spec
     * means the whole table; a partial spec (e.g. only the first of two partition keys) matches all
     * its sub-partitions. Values are strings as in {@code PARTITION (k = 'v')}
     * ({@link PartitionValues}); the default partition name stands for NULL. With no messages this
     * purges the matching partitions. Makes no snapshot if nothing would change.
     *
     * @throws IllegalArgumentException if the spec names a non-partition key or a value does not fit
     * @throws InvalidCommitException if a message writes to a partition outside the spec
     */
    public void overwrite(long identifier, Map<String, String> staticPartition, List<CommitMessage> messages) {
        PartitionSpec spec = PartitionSpec.parse(partitionType, staticPartition, defaultPartitionName, tableName);
        for (CommitMessage m : messages) {
            if (!m.isEmpty() && !spec.matches(m.partition())) {
                throw new InvalidCommitException("Cannot overwrite partition " + spec + " of table " + tableName
                        + ": written files belong to partition " + describe(m) + ", which is outside it; "
                        + "write only rows of the overwritten partition or overwrite a wider one");
            }
        }
        ManifestFilter scope = spec.predicate().map(p -> new ManifestFilter(p, null, null)).orElse(ManifestFilter.ALL);
        commit.overwrite(ManifestCommittable.of(identifier, messages), scope);
        registerPartitions(messages);
        expireAfterCommit();
    }

    /**
     * INSERT OVERWRITE in dynamic partition mode (Paimon's default {@code dynamic-partition-overwrite}):
     * replaces exactly the partitions the messages write to, in one OVERWRITE snapshot, and leaves the
     * others alone. For an unpartitioned table that is the whole table. Without any (non-empty) message
     * nothing changes and no snapshot is made.
     */
    public void overwriteDynamicPartitions(long identifier, List<CommitMessage> messages) {
        Set<BinaryRow> partitions = new LinkedHashSet<>();
        for (CommitMessage m : messages) {
            if (!m.isEmpty()) {
                partitions.add(m.partition());
            }
        }
        if (partitions.isEmpty()) {
            return;
        }
        ManifestFilter scope = partitionType.fieldCount() == 0
                ? ManifestFilter.ALL
                : ManifestFilter.partitions(partitionType, partitions);
        commit.overwrite(ManifestCommittable.of(identifier, messages), scope);
        registerPartitions(messages);
        expireAfterCommit();
    }

    /** TRUNCATE TABLE: one OVERWRITE snapshot that deletes every file (none if the table is empty). */
    public void truncateTable(long identifier) {
        commit.overwrite(ManifestCommittable.of(identifier, List.of()), ManifestFilter.ALL);
        unregisterPartitions(List.of(new LinkedHashMap<>()));
        expireAfterCommit();
    }

    /**
     * ALTER TABLE DROP PARTITION: one OVERWRITE snapshot that deletes every file of the partitions
     * matching any of the specs (partial specs match all sub-partitions; see {@link #overwrite}).
     * Makes no snapshot if no partition matches.
     *
     * @throws IllegalArgumentException if the table is unpartitioned, no spec or an empty spec is given,
     *     or a spec is invalid
     */
    public void dropPartitions(long identifier, List<Map<String, String>> partitions) {
        if (partitionType.fieldCount() == 0) {
            throw new IllegalArgumentException("Cannot drop partitions of table " + tableName
                    + ": it is not partitioned; use TRUNCATE TABLE to delete all rows");
        }
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("Cannot drop partitions of table " + tableName
                    + ": no partition spec given");
        }
        List<Predicate> matches = new ArrayList<>();
        List<LinkedHashMap<String, String>> specs = new ArrayList<>();
        for (Map<String, String> raw : partitions) {
            LinkedHashMap<String, String> ordered = new LinkedHashMap<>();
            for (String key : partitionType.fieldNames()) {
                if (raw.containsKey(key)) {
                    ordered.put(key, raw.get(key));
                }
            }
            specs.add(ordered);
            PartitionSpec spec = PartitionSpec.parse(partitionType, raw, defaultPartitionName, tableName);
            matches.add(spec.predicate().orElseThrow(() -> new IllegalArgumentException("Cannot drop partitions of "
                    + "table " + tableName + ": a partition spec is empty, which would drop every partition; "
                    + "use TRUNCATE TABLE for that")));
        }
        commit.overwrite(ManifestCommittable.of(identifier, List.of()),
                new ManifestFilter(PredicateBuilder.or(matches), null, null));
        unregisterPartitions(specs);
        expireAfterCommit();
    }

    /**
     * Drops exactly the partitions with these values (as a snapshot's partition rows): one OVERWRITE
     * snapshot that deletes all their files, as partition expiration does. Makes no snapshot if none of
     * them has files.
     *
     * @throws IllegalArgumentException if the table is unpartitioned or no partition is given
     */
    public void dropPartitionRows(long identifier, Collection<BinaryRow> partitions) {
        if (partitionType.fieldCount() == 0 || partitions.isEmpty()) {
            throw new IllegalArgumentException("Cannot drop partitions of table " + tableName
                    + (partitions.isEmpty() ? ": no partition given" : ": it is not partitioned"));
        }
        commit.overwrite(ManifestCommittable.of(identifier, List.of()),
                ManifestFilter.partitions(partitionType, new LinkedHashSet<>(partitions)));
        unregisterPartitions(partitions.stream().map(p -> paths.renderer().values(p))
                .collect(java.util.stream.Collectors.toList()));
    }

    private String describe(CommitMessage m) {
        String path = paths.renderer().render(m.partition());
        return path.isEmpty() ? "<none>" : path.substring(0, path.length() - 1);
    }

    /** The identifiers that this commit user has not committed yet. */
    public List<Long> filterCommitted(List<Long> identifiers) {
        return commit.filterCommitted(identifiers);
    }

    /**
     * For an identifier that {@link #filterCommitted} reports committed, after a restart: if the
     * compactions of its messages never reached a snapshot (the job failed between the identifier's
     * APPEND and COMPACT snapshots), deletes the files they wrote, which nothing will ever reference.
     * Deletes nothing when their COMPACT snapshot landed or when the retained snapshots cannot tell.
     *
     * @return whether the compactions were found uncommitted (and their files deleted)
     */
    public boolean abortCompactionsIfNotCommitted(long identifier, List<CommitMessage> messages) {
        List<CommitMessage> compactions = new ArrayList<>();
        for (CommitMessage m : messages) {
            if (!m.compactIncrement().isEmpty()) {
                compactions.add(new CommitMessage(m.partition(), m.bucket(), m.totalBuckets(),
                        dev.streamhouse.storage.commit.DataIncrement.EMPTY, m.compactIncrement()));
            }
        }
        if (compactions.isEmpty() || !commit.hasCommittedCompaction(identifier).equals(java.util.Optional.of(false))) {
            return false;
        }
        abort(compactions);
        return true;
    }

    /**
     * Deletes the new data files of messages that will never be committed (e.g. a failed batch job).
     * Only call this when the messages are certainly not part of any snapshot.
     */
    public void abort(List<CommitMessage> messages) {
        for (CommitMessage m : messages) {
            java.util.Set<String> upgraded = new java.util.HashSet<>();
            m.compactIncrement().compactBefore().forEach(f -> upgraded.add(f.fileName()));
            for (List<DataFileMeta> files : List.of(m.dataIncrement().newFiles(), m.dataIncrement().changelogFiles(),
                    m.compactIncrement().compactAfter(), m.compactIncrement().changelogFiles())) {
                for (DataFileMeta f : files) {
                    // An upgraded file keeps its name: it is still the live input, never delete it.
                    if (!upgraded.contains(f.fileName())) {
                        fileIO.deleteQuietly(paths.dataFile(m.partition(), m.bucket(), f.fileName()));
                    }
                }
            }
            for (List<dev.streamhouse.storage.index.IndexFileMeta> index : List.of(m.dataIncrement().newIndexFiles(),
                    m.compactIncrement().newIndexFiles())) {
                index.forEach(f -> fileIO.deleteQuietly(new dev.streamhouse.storage.fs.Path(paths.indexDir(),
                        f.fileName())));
            }
        }
    }

    /** Waits for a background expiration (execution mode 'async') to finish. */
    @Override
    public void close() {
        if (expiration != null) {
            expiration.close();
        }
    }
}
