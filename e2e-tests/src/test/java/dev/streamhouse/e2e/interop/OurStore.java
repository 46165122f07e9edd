package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.Filter;
import dev.streamhouse.e2e.oracle.OurRows;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.AppendCompactCoordinator;
import dev.streamhouse.storage.table.sink.AppendCompactTask;
import dev.streamhouse.storage.table.sink.AppendCompactWorker;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.types.RowType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Our side of the interoperability tests: the same operations as {@code PaimonOracle}, through our
 * storage Java API, on canonical rows.
 */
final class OurStore implements AutoCloseable {
    private final Catalog catalog;

    OurStore(Path warehouse) {
        this(warehouse, java.util.Map.of());
    }

    /** Our catalog over {@code warehouse} with further catalog options (e.g. a jdbc metastore's). */
    OurStore(Path warehouse, java.util.Map<String, String> catalogOptions) {
        Options options = new Options(catalogOptions);
        options.set("warehouse", warehouse.toUri().toString());
        this.catalog = CatalogFactory.createCatalog(options);
    }

    Catalog catalog() {
        return catalog;
    }

    void createDatabase(String db) {
        catalog.createDatabase(db, true);
    }

    Table createTable(String db, String name, TableSpec spec) {
        Schema.Builder b = Schema.newBuilder();
        for (TableSpec.Column c : spec.columns()) {
            b.column(c.name(), OurRows.parseType(c.type()));
        }
        b.partitionKeys(spec.partitionKeys()).primaryKey(spec.primaryKeys()).options(spec.options());
        catalog.createTable(Identifier.of(db, name), b.build(), false);
        return table(db, name);
    }

    Table table(String db, String name) {
        return catalog.getTable(Identifier.of(db, name));
    }

    /** Writes the rows as one batch commit; returns the new latest snapshot id. */
    long write(String db, String name, List<CanonicalRow> rows) throws Exception {
        Table t = table(db, name);
        try (TableWrite w = t.newWrite(); BatchTableCommit c = t.newBatchCommit()) {
            for (InternalRow r : OurRows.toOurs(rows, t.rowType())) {
                w.write(r);
            }
            c.commit(w.prepareCommit());
        }
        return t.latestSnapshot().orElseThrow().id();
    }

    /** Compacts every (partition, bucket) that has files, as one commit. */
    /**
     * Writes a dynamic-bucket table as a Flink job with {@code assigners} bucket assigners
     * ({@code perPartition} per partition) and {@code writers} writers routed by (partition, bucket)
     * would, in one batch commit.
     */
    long writeRouted(String db, String name, int assigners, int perPartition, int writers, List<CanonicalRow> rows)
            throws Exception {
        Table t = table(db, name);
        dev.streamhouse.storage.table.sink.RowKeyExtractor keys =
                dev.streamhouse.storage.table.sink.RowKeyExtractor.of(t.schema());
        List<dev.streamhouse.storage.table.sink.TableBucketAssigner> assignerTasks = new java.util.ArrayList<>();
        for (int i = 0; i < assigners; i++) {
            assignerTasks.add(t.newBucketAssigner(dev.streamhouse.storage.table.sink.WriteContext.single()
                    .withAssigner(new dev.streamhouse.storage.bucket.dynamic.AssignerRouting(assigners, perPartition, i))));
        }
        List<TableWrite> writerTasks = new java.util.ArrayList<>();
        for (int i = 0; i < writers; i++) {
            writerTasks.add(t.newWrite(dev.streamhouse.storage.table.sink.WriteContext.single().withAssignedBuckets()));
        }
        try (BatchTableCommit c = t.newBatchCommit()) {
            for (InternalRow r : OurRows.toOurs(rows, t.rowType())) {
                int partitionHash = keys.partition(r).formatHash();
                int assigner = dev.streamhouse.storage.bucket.dynamic.AssignerRouting.channel(partitionHash,
                        keys.trimmedPrimaryKeyHash(r), assigners, perPartition);
                int bucket = assignerTasks.get(assigner).assign(r);
                writerTasks.get(Math.floorMod(Math.floorMod(partitionHash, writers) + bucket, writers)).write(r, bucket);
            }
            List<dev.streamhouse.storage.commit.CommitMessage> messages = new java.util.ArrayList<>();
            for (TableWrite w : writerTasks) {
                messages.addAll(w.prepareCommit());
            }
            c.commit(messages);
        } finally {
            for (TableWrite w : writerTasks) {
                w.close();
            }
        }
        return t.latestSnapshot().orElseThrow().id();
    }

    long compactAll(String db, String name, boolean full) throws Exception {
        Table t = table(db, name);
        try (TableWrite w = t.newWrite(); BatchTableCommit c = t.newBatchCommit()) {
            java.util.Set<dev.streamhouse.storage.manifest.PartitionBucket> done = new java.util.HashSet<>();
            for (DataSplit s : t.newReadBuilder().newScan().plan().splits()) {
                if (done.add(new dev.streamhouse.storage.manifest.PartitionBucket(s.partition(), s.bucket()))) {
                    w.compact(s.partition(), s.bucket(), full);
                }
            }
            c.commit(w.prepareCommit());
        }
        return t.latestSnapshot().orElseThrow().id();
    }

    /**
     * Writes each batch as one checkpoint of a single streaming writer (as a streaming job's writer:
     * its background compactions travel with its commits, each commit waiting for the running one).
     */
    void writeAsOneJob(String db, String name, List<List<CanonicalRow>> batches) throws Exception {
        Table t = table(db, name);
        try (TableWrite w = t.newWrite(); TableCommit c = t.newStreamCommit(java.util.UUID.randomUUID().toString())) {
            long checkpoint = 0;
            for (List<CanonicalRow> batch : batches) {
                for (InternalRow r : OurRows.toOurs(batch, t.rowType())) {
                    w.write(r);
                }
                c.commit(++checkpoint, w.prepareCommit(true));
            }
        }
    }

    /**
     * Compacts a table without buckets as a streaming job's compaction coordinator and workers do:
     * plans from the committed files and commits the rewrites of every task; returns the task count.
     */
    int compactWithCoordinator(String db, String name) throws Exception {
        Table t = table(db, name);
        List<AppendCompactTask> tasks = AppendCompactCoordinator.of(t).run();
        AppendCompactWorker worker = AppendCompactWorker.of(t);
        List<dev.streamhouse.storage.commit.CommitMessage> messages = new ArrayList<>();
        for (AppendCompactTask task : tasks) {
            messages.add(worker.compact(task));
        }
        try (BatchTableCommit c = t.newBatchCommit()) {
            c.commit(messages);
        }
        return tasks.size();
    }

    /** How many COMPACT snapshots the table has. */
    int compactSnapshots(String db, String name) {
        Table t = table(db, name);
        int n = 0;
        for (long id = 1; id <= t.latestSnapshot().orElseThrow().id(); id++) {
            if (t.snapshot(id).orElseThrow().commitKind() == dev.streamhouse.storage.snapshot.CommitKind.COMPACT) {
                n++;
            }
        }
        return n;
    }

    List<CanonicalRow> readAll(String db, String name) throws Exception {
        return scan(db, name, null, null).rows();
    }

    /** All rows of snapshot {@code snapshotId} (time travel). */
    List<CanonicalRow> readSnapshot(String db, String name, long snapshotId) throws Exception {
        ReadBuilder rb = table(db, name).newReadBuilder().withSnapshot(snapshotId);
        RowType readType = rb.readType();
        List<CanonicalRow> rows = new ArrayList<>();
        rb.newRead().createReader(rb.newScan().plan().splits()).forEachRemaining(r -> rows.add(OurRows.toCanonical(r, readType)));
        return rows;
    }

    /**
     * Streams the table with our stream scan under the given dynamic options, plan by plan, until the
     * scan has passed the latest snapshot; the rows of each plan, with their row kinds. As the oracle's
     * {@code streamPlansUntilLatest}.
     */
    List<List<CanonicalRow>> streamPlansUntilLatest(String db, String name, Map<String, String> options)
            throws Exception {
        Table t = table(db, name).copy(options);
        ReadBuilder rb = t.newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        RowType type = rb.readType();
        long latest = t.latestSnapshot().orElseThrow().id();
        List<List<CanonicalRow>> out = new ArrayList<>();
        for (int round = 0; round < 4 * latest + 10; round++) {
            List<CanonicalRow> rows = new ArrayList<>();
            rb.newRead().createReader(scan.plan().splits()).forEachRemaining(r -> rows.add(OurRows.toCanonical(r, type)));
            out.add(rows);
            Long next = scan.checkpoint();
            if (next != null && next > latest) {
                return out;
            }
        }
        throw new AssertionError("Our stream scan of " + db + "." + name + " did not get past snapshot " + latest);
    }

    /** What a scan returned (rows re-filtered exactly) and how much it planned. */
    record ScanResult(List<CanonicalRow> rows, int splits, int files) {}

    ScanResult scan(String db, String name, List<String> projection, Filter filter) throws Exception {
        Table t = table(db, name);
        ReadBuilder rb = t.newReadBuilder();
        if (filter != null) {
            rb.withFilter(filter.toOurs(t.rowType()));
        }
        if (projection != null) {
            rb.withProjection(projection);
        }
        List<DataSplit> splits = rb.newScan().plan().splits();
        int files = splits.stream().mapToInt(s -> s.files().size()).sum();
        RowType readType = rb.readType();
        List<CanonicalRow> rows = new ArrayList<>();
        rb.newRead().executeFilter().createReader(splits).forEachRemaining(r -> rows.add(OurRows.toCanonical(r, readType)));
        return new ScanResult(rows, splits.size(), files);
    }

    @Override
    public void close() {
        catalog.close();
    }
}
