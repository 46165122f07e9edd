package dev.streamhouse.storage.table;

import dev.streamhouse.storage.maintenance.expire.ExpireConfig;
import dev.streamhouse.storage.maintenance.expire.PostCommitExpiration;
import dev.streamhouse.storage.maintenance.partition.TablePartitionExpiration;
import dev.streamhouse.storage.maintenance.tag.AutoTagConfig;
import dev.streamhouse.storage.maintenance.tag.PostCommitTags;
import dev.streamhouse.storage.maintenance.tag.TagSuccessFiles;
import dev.streamhouse.storage.operation.FileStoreCommit;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.options.SnapshotExpireOptions;
import dev.streamhouse.storage.table.sink.MetastorePartitions;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.util.function.LongConsumer;

/**
 * Assembles a table's commit with what runs around each commit, from the table's options: snapshot
 * expiration, partition expiration, automatic tags and tag expiration (none of them with {@code
 * write-only}, which leaves them to a compaction job, as in Paimon), and the partitions kept in step in
 * a metastore. Options another writer stored past this store's checks never fail a commit: the hook
 * they configure is left out with a warning.
 */
final class CommitHooks {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CommitHooks.class);

    private CommitHooks() {}

    static TableCommit assemble(FileStoreTable table, FileStoreCommit fileStoreCommit,
            MetastorePartitions metastorePartitions) {
        Options o = table.schema().tableOptions();
        TableCommit commit = new TableCommit(fileStoreCommit, table.fileIO(), table.paths(),
                table.schema().partitionType(), o.get(PartitionOptions.PARTITION_DEFAULT_NAME), table.fullName(),
                postCommitExpiration(table));
        if (metastorePartitions != null && !metastorePartitions.isTags()) {
            commit.registeringPartitionsIn(metastorePartitions.registry());
        }
        LongConsumer partitionExpiration = TablePartitionExpiration.afterCommitHook(table);
        if (partitionExpiration != null) {
            commit.afterEachCommit(partitionExpiration);
        }
        PostCommitTags tags = postCommitTags(table);
        if (tags != null) {
            commit.afterEachCommit(tags);
            commit.forcingSnapshotsWhen(tags::forceCreatingSnapshot);
        }
        return commit;
    }

    /** Snapshot expiration after each commit, or null. */
    private static PostCommitExpiration postCommitExpiration(FileStoreTable table) {
        Options o = table.schema().tableOptions();
        if (o.get(MergeTreeOptions.WRITE_ONLY)) {
            return null;
        }
        ExpireConfig config;
        try {
            config = ExpireConfig.from(o);
        } catch (IllegalArgumentException e) {
            LOG.warn("Table {} does not expire snapshots after commits: {}", table.fullName(), e.getMessage());
            return null;
        }
        return new PostCommitExpiration(table.newSnapshotExpiration(), config,
                "async".equals(o.get(SnapshotExpireOptions.SNAPSHOT_EXPIRE_EXECUTION_MODE)), table.fullName());
    }

    /** Automatic tags and tag expiration after each commit ({@link PostCommitTags}), or null. */
    private static PostCommitTags postCommitTags(FileStoreTable table) {
        Options o = table.schema().tableOptions();
        if (o.get(MergeTreeOptions.WRITE_ONLY)) {
            return null;
        }
        try {
            return new PostCommitTags(table.snapshotManager(), table.tagManager(), AutoTagConfig.from(o),
                    new TagSuccessFiles(table.fileIO(), table.location()), table.fullName());
        } catch (IllegalArgumentException e) {
            LOG.warn("Table {} creates no automatic tags after commits: {}", table.fullName(), e.getMessage());
            return null;
        }
    }
}
