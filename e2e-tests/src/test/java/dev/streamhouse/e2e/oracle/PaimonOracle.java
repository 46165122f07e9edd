package dev.streamhouse.e2e.oracle;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.options.Options;
import org.apache.paimon.partition.Partition;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.RowPartitionKeyExtractor;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.table.source.TableScan;
import org.apache.paimon.types.RowType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * A small facade over Apache Paimon 1.3.1's Java API on a filesystem warehouse, used as the
 * reference implementation ("oracle") in interop tests. Rows go in and come out as
 * {@link CanonicalRow}s; tables are created from a neutral {@link TableSpec}; filters are neutral
 * {@link Filter}s.
 *
 * <p>Environment facts (verified with this module's test classpath):
 *
 * <ul>
 *   <li><b>Hadoop is required</b> even for local warehouses: {@code CatalogContext} instantiates
 *       Hadoop's {@code Configuration}. It comes from our storage module's {@code hadoop-client-api}
 *       plus {@code hadoop-client-runtime} (the API jar alone fails on a shaded woodstox class). File
 *       access itself uses Paimon's {@code LocalFileIO} (plain paths or {@code file:} URIs).
 *   <li><b>Flink classes are required on the classpath</b>, though only Paimon's core API is used:
 *       the paimon-flink jar lists Flink-based providers (procedures, actions,
 *       {@code KafkaLogStoreFactory}) in {@code META-INF/services/org.apache.paimon.factories.Factory},
 *       and Paimon's factory discovery, which runs for every catalog creation, fails on the first one
 *       whose Flink superclass is missing. Hence {@code flink-table-api-java-bridge} (test scope) in
 *       this module's pom. The first catalog of a JVM takes about 2 s because of that discovery.
 *   <li>No {@code --add-opens} are needed for Paimon itself.
 *   <li>The catalog is created with {@code cache-enabled=false}, and every call re-loads the table,
 *       so a read sees the latest snapshot and schema written by either implementation.
 *   <li>Paimon logs through SLF4J. {@code log4j2-test.properties} in this module sets WARN and
 *       silences {@code HadoopUtils}' "Could not find Hadoop configuration" warning.
 *   <li>Temp dirs: surefire sets {@code java.io.tmpdir=target/tmp}; put warehouses in JUnit's
 *       {@code @TempDir}.
 * </ul>
 *
 * <p>Writes: every {@link #write} is one batch commit (one snapshot). Fixed-bucket, bucket-unaware
 * (append, {@code bucket=-1}) and dynamic-bucket primary-key tables ({@code bucket=-1}, the default
 * for PK tables; the oracle assigns buckets like Paimon's Flink sink does, see
 * {@code DynamicBuckets}) are supported; cross-partition-update and postpone-bucket tables are
 * not.
 *
 * <p>Not thread-safe; one instance per test.
 */
public final class PaimonOracle implements AutoCloseable {
    private final String warehouse;
    private final Catalog catalog;
    /** Spill and lookup files of writes (lookup compaction, deletion vectors need them). */
    private final org.apache.paimon.disk.IOManager ioManager =
            org.apache.paimon.disk.IOManager.create(System.getProperty("java.io.tmpdir"));

    /** An oracle over the warehouse directory {@code warehouse} (created on demand). */
    public PaimonOracle(Path warehouse) {
        this(warehouse.toAbsolutePath().toString());
    }

    /** An oracle over a warehouse path or URI Paimon understands (a local path or {@code file:} URI). */
    public PaimonOracle(String warehouse) {
        this(warehouse, Map.of());
    }

    /**
     * An oracle over {@code warehouse} with further catalog options, e.g. {@code metastore} = {@code jdbc}
     * and its {@code uri}.
     */
    public PaimonOracle(String warehouse, Map<String, String> catalogOptions) {
        this.warehouse = Objects.requireNonNull(warehouse);
        Options options = new Options();
        catalogOptions.forEach(options::set);
        options.set("warehouse", warehouse);
        options.set("cache-enabled", "false");
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    /** Paimon's catalog, for anything this facade does not cover. */
    public Catalog catalog() {
        return catalog;
    }

    public String warehouse() {
        return warehouse;
    }

    /** The directory of a table in a filesystem warehouse: {@code <warehouse>/<db>.db/<table>}. */
    public Path tablePath(String database, String table) {
        return Path.of(warehouse).resolve(database + ".db").resolve(table);
    }

    /** Creates the database unless it exists. */
    public void createDatabase(String database) {
        try {
            catalog.createDatabase(database, true);
        } catch (Catalog.DatabaseAlreadyExistException e) {
            throw new IllegalStateException("unreachable with ignoreIfExists", e);
        }
    }

    /** Creates the table (and its database if missing) from a neutral description; fails if it exists. */
    public Table createTable(String database, String table, TableSpec spec) {
        createDatabase(database);
        Schema.Builder schema = Schema.newBuilder();
        for (TableSpec.Column c : spec.columns()) {
            schema.column(c.name(), c.paimonType());
        }
        schema.partitionKeys(spec.partitionKeys());
        schema.primaryKey(spec.primaryKeys());
        schema.options(spec.options());
        try {
            catalog.createTable(Identifier.create(database, table), schema.build(), false);
        } catch (Catalog.TableAlreadyExistException | Catalog.DatabaseNotExistException e) {
            throw new IllegalStateException("Cannot create table " + database + "." + table + ": " + e.getMessage(), e);
        }
        return table(database, table);
    }

    /** The table as Paimon sees it now (latest schema). */
    public Table table(String database, String table) {
        try {
            return catalog.getTable(Identifier.create(database, table));
        } catch (Catalog.TableNotExistException e) {
            throw new IllegalStateException("Cannot load table " + database + "." + table + ": it does not exist in "
                    + warehouse, e);
        }
    }

    /** The table's current row type in Paimon's type system. */
    public RowType rowType(String database, String table) {
        return table(database, table).rowType();
    }

    /** The latest snapshot id, or empty for a table without snapshots. */
    public OptionalLong latestSnapshotId(String database, String table) {
        return table(database, table).latestSnapshot().map(s -> OptionalLong.of(s.id())).orElse(OptionalLong.empty());
    }

    /** The latest snapshot, or null. */
    public Snapshot latestSnapshot(String database, String table) {
        return table(database, table).latestSnapshot().orElse(null);
    }

    /**
     * Writes the rows in one batch and commits them: one call makes one snapshot (none if
     * {@code rows} is empty). Row kinds are passed on (-D / -U only make sense for primary-key
     * tables). Returns the latest snapshot id after the commit (0 if none).
     */
    public long write(String database, String table, List<CanonicalRow> rows) {
        return writeAndCommit(table(database, table), null, rows);
    }

    /**
     * Like {@link #write}, with dynamic options for this write only (e.g. {@code write-only} = true, so
     * that the commit leaves its level-0 files uncompacted).
     */
    public long writeWith(String database, String table, Map<String, String> dynamicOptions, List<CanonicalRow> rows) {
        return writeAndCommit(table(database, table).copy(dynamicOptions), null, rows);
    }

    /**
     * Overwrites with the rows in one commit: the whole table when {@code partition} is empty,
     * otherwise the given static partition (values as strings, e.g. {@code p_date=2024-01-02}).
     */
    public long overwrite(String database, String table, Map<String, String> partition, List<CanonicalRow> rows) {
        return writeAndCommit(table(database, table), partition, rows);
    }

    private long writeAndCommit(Table t, Map<String, String> overwritePartition, List<CanonicalRow> rows) {
        RowType rt = t.rowType();
        BatchWriteBuilder builder = t.newBatchWriteBuilder();
        if (overwritePartition != null) {
            builder = builder.withOverwrite(overwritePartition);
        }
        BucketMode mode = t instanceof FileStoreTable ? ((FileStoreTable) t).bucketMode() : BucketMode.HASH_FIXED;
        if (mode == BucketMode.KEY_DYNAMIC || mode == BucketMode.POSTPONE_MODE) {
            throw new UnsupportedOperationException("Cannot write to " + t.fullName() + " with the oracle: bucket mode "
                    + mode + " needs Paimon's Flink sink; give the table a fixed 'bucket' or a primary key that"
                    + " includes the partition keys");
        }
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(ioManager);
            DynamicBuckets dynamic = mode == BucketMode.HASH_DYNAMIC ? new DynamicBuckets((FileStoreTable) t) : null;
            for (CanonicalRow row : rows) {
                GenericRow paimonRow = PaimonRows.toPaimon(row, rt);
                if (dynamic == null) {
                    write.write(paimonRow);
                } else {
                    write.write(paimonRow, dynamic.bucket(paimonRow));
                }
            }
            commit.commit(write.prepareCommit());
        } catch (Exception e) {
            throw new IllegalStateException("Cannot write " + rows.size() + " rows to " + t.fullName() + " with Paimon: "
                    + e.getMessage(), e);
        }
        return t.latestSnapshot().map(Snapshot::id).orElse(0L);
    }

    /**
     * Compacts every (partition, bucket) that has files, fully when {@code full}, as one commit (a
     * COMPACT snapshot). Returns the latest snapshot id afterwards.
     */
    public long compactAll(String database, String table, boolean full) {
        Table t = table(database, table);
        BatchWriteBuilder builder = t.newBatchWriteBuilder();
        java.util.Set<java.util.List<Object>> done = new java.util.HashSet<>();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(ioManager);
            for (org.apache.paimon.table.source.Split split : t.newReadBuilder().newScan().plan().splits()) {
                org.apache.paimon.table.source.DataSplit ds = (org.apache.paimon.table.source.DataSplit) split;
                if (done.add(java.util.List.of(ds.partition(), ds.bucket()))) {
                    write.compact(ds.partition(), ds.bucket(), full);
                }
            }
            commit.commit(write.prepareCommit());
        } catch (Exception e) {
            throw new IllegalStateException("Cannot compact " + t.fullName() + " with Paimon: " + e.getMessage(), e);
        }
        return t.latestSnapshot().map(Snapshot::id).orElse(0L);
    }

    /**
     * Bucket assignment for dynamic-bucket ({@code bucket = -1}) primary-key tables, which Paimon's
     * plain {@code TableWrite.write(row)} refuses. Does what Paimon's Flink sink does with one
     * assigner: loads the hash index of the latest snapshot and assigns keys by
     * {@code trimmedPrimaryKey.hashCode()}; the writer then maintains the index files.
     */
    private static final class DynamicBuckets {
        private final RowPartitionKeyExtractor extractor;
        private final HashBucketAssigner assigner;

        DynamicBuckets(FileStoreTable table) {
            CoreOptions options = table.coreOptions();
            this.extractor = new RowPartitionKeyExtractor(table.schema());
            this.assigner = new HashBucketAssigner(table.snapshotManager(), UUID.randomUUID().toString(),
                    table.store().newIndexFileHandler(), 1, 1, 0, options.dynamicBucketTargetRowNum(),
                    options.dynamicBucketMaxBuckets());
        }

        int bucket(InternalRow row) {
            return assigner.assign(extractor.partition(row), extractor.trimmedPrimaryKey(row).hashCode());
        }
    }

    /** All rows of the latest snapshot, all columns. */
    public List<CanonicalRow> readAll(String database, String table) {
        return scan(database, table, Query.all()).rows();
    }

    /** All rows of snapshot {@code snapshotId} (time travel with {@code scan.snapshot-id}), all columns. */
    public List<CanonicalRow> readSnapshot(String database, String table, long snapshotId) {
        Table t = table(database, table).copy(Map.of("scan.snapshot-id", Long.toString(snapshotId)));
        ReadBuilder rb = t.newReadBuilder();
        RowType type = rb.readType();
        List<CanonicalRow> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(r -> rows.add(PaimonRows.toCanonical(r, type)));
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read snapshot " + snapshotId + " of " + t.fullName()
                    + " with Paimon: " + e.getMessage(), e);
        }
        return rows;
    }

    /** The rows of the latest snapshot matching {@code filter} (exactly), with the given columns. */
    public List<CanonicalRow> read(String database, String table, List<String> projection, Filter filter) {
        Query q = Query.all();
        if (projection != null) {
            q = q.project(projection);
        }
        if (filter != null) {
            q = q.filter(filter);
        }
        return scan(database, table, q).rows();
    }

    /**
     * Plans and reads the latest snapshot with Paimon. The filter and partition filter are pushed
     * into Paimon's planning (manifest, file and row-group pruning); since Paimon only prunes, the
     * oracle then re-applies the filter to each returned row ({@link Filter#test}) so that
     * {@link ScanResult#rows()} holds exactly the matching rows. Columns the filter needs are read
     * even when not projected, then dropped.
     */
    public ScanResult scan(String database, String table, Query query) {
        Table t = table(database, table);
        RowType rowType = t.rowType();
        List<String> projection = query.projection != null ? query.projection : rowType.getFieldNames();
        Set<String> readColumns = new LinkedHashSet<>(projection);
        if (query.filter != null) {
            readColumns.addAll(query.filter.columns());
        }
        ReadBuilder rb = t.newReadBuilder().withProjection(rowType.getFieldIndices(new ArrayList<>(readColumns)));
        if (query.filter != null) {
            rb = rb.withFilter(query.filter.toPaimon(rowType));
        }
        if (query.partition != null) {
            rb = rb.withPartitionFilter(query.partition);
        }
        List<Split> splits = rb.newScan().plan().splits();
        RowType readType = rb.readType();
        List<CanonicalRow> raw = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(splits)) {
            reader.forEachRemaining(r -> raw.add(PaimonRows.toCanonical(r, readType)));
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read " + t.fullName() + " with Paimon: " + e.getMessage(), e);
        }
        int[] out = readType.getFieldIndices(projection);
        List<CanonicalRow> rows = new ArrayList<>(raw.size());
        for (CanonicalRow r : raw) {
            if (query.filter == null || query.filter.test(r, readType)) {
                rows.add(r.project(out));
            }
        }
        int files = 0;
        for (Split s : splits) {
            files += s instanceof DataSplit ? ((DataSplit) s).dataFiles().size() : 0;
        }
        return new ScanResult(rows, projection, splits.size(), files, raw.size());
    }

    /**
     * The table's partitions as Paimon lists them, with record and file counts. Spec values are
     * Paimon's rendered partition strings (legacy naming by default: a DATE is its day count, e.g.
     * {@code 19724}); '' and NULL both show as {@code __DEFAULT_PARTITION__}, as two entries.
     */
    /**
     * Streams the table with Paimon's own stream scan under the given dynamic options (e.g. a scan
     * mode or a consumer id), plan by plan, until the scan has passed the latest snapshot; the rows
     * with their row kinds.
     */
    public List<CanonicalRow> streamUntilLatest(String database, String table, Map<String, String> options)
            throws Exception {
        List<CanonicalRow> out = new ArrayList<>();
        streamPlansUntilLatest(database, table, options).forEach(out::addAll);
        return out;
    }

    /** Like {@link #streamUntilLatest}, the rows of each plan apart (a full first plan, then one per snapshot). */
    public List<List<CanonicalRow>> streamPlansUntilLatest(String database, String table, Map<String, String> options)
            throws Exception {
        ReadBuilder rb = table(database, table).copy(options).newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        RowType type = rb.readType();
        long latest = latestSnapshotId(database, table).orElseThrow();
        List<List<CanonicalRow>> out = new ArrayList<>();
        // Each plan covers at most one snapshot; stop once the scan has passed the latest one.
        for (int round = 0; round < 4 * latest + 10; round++) {
            TableScan.Plan plan = scan.plan();
            List<CanonicalRow> rows = new ArrayList<>();
            try (RecordReader<InternalRow> reader = rb.newRead().createReader(plan)) {
                reader.forEachRemaining(r -> rows.add(PaimonRows.toCanonical(r, type)));
            }
            out.add(rows);
            Long next = scan.checkpoint();
            if (next != null && next > latest) {
                return out;
            }
        }
        throw new AssertionError("Paimon's stream scan of " + database + "." + table
                + " did not get past snapshot " + latest);
    }

    public List<PartitionInfo> listPartitions(String database, String table) {
        try {
            List<PartitionInfo> out = new ArrayList<>();
            for (Partition p : catalog.listPartitions(Identifier.create(database, table))) {
                out.add(new PartitionInfo(new LinkedHashMap<>(p.spec()), p.recordCount(), p.fileCount()));
            }
            return out;
        } catch (Catalog.TableNotExistException e) {
            throw new IllegalStateException("Cannot list partitions of " + database + "." + table + ": no such table", e);
        }
    }

    @Override
    public void close() throws Exception {
        catalog.close();
        ioManager.close();
    }

    /** What to read: a projection (column names), a {@link Filter} and a partition spec. Immutable. */
    public static final class Query {
        private final List<String> projection;
        private final Filter filter;
        private final Map<String, String> partition;

        private Query(List<String> projection, Filter filter, Map<String, String> partition) {
            this.projection = projection;
            this.filter = filter;
            this.partition = partition;
        }

        /** All columns, all rows. */
        public static Query all() {
            return new Query(null, null, null);
        }

        /** Only these columns, in this order. */
        public Query project(List<String> columns) {
            return new Query(List.copyOf(columns), filter, partition);
        }

        public Query project(String... columns) {
            return project(List.of(columns));
        }

        /** Rows matching this filter (pushed down, then re-applied exactly). */
        public Query filter(Filter f) {
            return new Query(projection, f, partition);
        }

        /**
         * Only this partition, given as Paimon's {@code withPartitionFilter} takes it: column name to
         * value as a string ({@code 2024-01-02} for a DATE), {@code __DEFAULT_PARTITION__} for NULL
         * (which selects NULL only; select '' with {@code Filter.eq(column, "")} instead).
         */
        public Query partition(Map<String, String> spec) {
            return new Query(projection, filter, new LinkedHashMap<>(spec));
        }
    }

    /**
     * The result of {@link #scan}: the matching rows (projected), the projected column names, the
     * number of splits and data files Paimon planned, and how many rows Paimon returned before the
     * exact re-filtering (a lower number than a full scan shows row-group or file pruning).
     */
    public record ScanResult(List<CanonicalRow> rows, List<String> columns, int splits, int files, int rowsBeforeFilter) {}

    /** A partition as listed by Paimon: spec (column to string value), record count, file count. */
    public record PartitionInfo(Map<String, String> spec, long recordCount, long fileCount) {}
}
