package dev.streamhouse.storage.table;

import dev.streamhouse.storage.bucket.dynamic.DynamicBucketAssigner;
import dev.streamhouse.storage.bucket.dynamic.HashIndexFile;
import dev.streamhouse.storage.format.FileFormats;
import dev.streamhouse.storage.operation.NewerMetadataCheck;
import dev.streamhouse.storage.operation.TableFeatureCheck;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.sink.AppendTableWrite;
import dev.streamhouse.storage.table.sink.BucketStateLoader;
import dev.streamhouse.storage.table.sink.PrimaryKeyTableWrite;
import dev.streamhouse.storage.table.sink.TableBucketAssigner;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.sink.WriteContext;
import dev.streamhouse.storage.table.source.DataSplit;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Builds a table's writes and dynamic bucket assigners, after the checks that must pass before any data
 * file is written (the table's features and options, and that no newer Paimon wrote it last), with the
 * bucket state they continue from: the latest snapshot's, loaded per partition at first use
 * ({@link LatestSnapshotBucketState}), or none when the write ignores previous files.
 */
final class TableWrites {
    private TableWrites() {}

    static TableWrite newWrite(FileStoreTable table, WriteContext context) {
        TableSchema schema = table.schema();
        String fullName = table.fullName();
        TableFeatureCheck.checkOptions(schema, fullName, TableFeatureCheck.Access.WRITE);
        try {
            new NewerMetadataCheck(table.manifestList(), table.indexManifestFile(), fullName)
                    .checkWritable(table.snapshotManager().latestSnapshot().orElse(null));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write to table " + fullName + ": reading its latest snapshot failed", e);
        }
        String format = schema.tableOptions().get(FileFormatOptions.FILE_FORMAT);
        BucketStateLoader state = bucketState(table, context);
        if (schema.hasPrimaryKey()) {
            PrimaryKeyTableWrite predecessor = null;
            if (context.predecessor() != null) {
                if (!(context.predecessor() instanceof PrimaryKeyTableWrite p)) {
                    throw new IllegalArgumentException("Cannot continue " + context.predecessor() + " as a write of "
                            + "primary-key table " + fullName);
                }
                predecessor = p;
            }
            return new PrimaryKeyTableWrite(table.fileIO(), table.paths(), schema, table.schemaCache(),
                    FileFormats.of(format), fullName, state, context.assigner(), context.tempDirectory(), predecessor,
                    context.bucketsAssigned());
        }
        if (context.predecessor() != null) {
            throw new UnsupportedOperationException("Cannot continue an earlier write of append table " + fullName
                    + ": hand-over between writes is supported for primary-key tables only");
        }
        return new AppendTableWrite(table.fileIO(), table.paths(), schema, FileFormats.of(format), fullName, state,
                (partition, bucket, files) -> table.newReadBuilder().newRead().createReader(
                        new DataSplit(0, partition, bucket, schema.numBuckets() > 0 ? schema.numBuckets() : -1,
                                files, true, true)));
    }

    static TableBucketAssigner newBucketAssigner(FileStoreTable table, WriteContext context) {
        TableSchema schema = table.schema();
        String fullName = table.fullName();
        TableFeatureCheck.checkOptions(schema, fullName, TableFeatureCheck.Access.WRITE);
        if (!schema.hasPrimaryKey() || schema.numBuckets() != -1) {
            throw new UnsupportedOperationException("Cannot assign dynamic buckets of table " + fullName + ": it is "
                    + (schema.hasPrimaryKey() ? "a primary-key table with 'bucket' = " + schema.numBuckets()
                    : "an append table") + "; only primary-key tables with 'bucket' = -1 have dynamic buckets");
        }
        if (!schema.primaryKeys().containsAll(schema.partitionKeys())) {
            throw new UnsupportedOperationException("Cannot write to table " + fullName + ": its primary key "
                    + schema.primaryKeys() + " does not include all partition keys " + schema.partitionKeys()
                    + " (cross-partition upsert), which is not supported yet; set a fixed 'bucket' or add the "
                    + "partition keys to the primary key");
        }
        BucketStateLoader state = bucketState(table, context);
        DynamicBucketAssigner assigner = DynamicBucketAssigner.create(schema.tableOptions(),
                new HashIndexFile(table.fileIO(), table.paths().root(), table.paths().renderer()),
                state::hashIndexEntries, context.assigner());
        return TableBucketAssigner.of(schema, assigner);
    }

    private static BucketStateLoader bucketState(FileStoreTable table, WriteContext context) {
        return context.ignoresPreviousFiles() ? LatestSnapshotBucketState.EMPTY : new LatestSnapshotBucketState(table);
    }
}
