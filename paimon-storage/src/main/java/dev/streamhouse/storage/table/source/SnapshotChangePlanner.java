package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.mergetree.read.KeyFilterPruner;
import dev.streamhouse.storage.operation.FileStoreScan;
import dev.streamhouse.storage.operation.ScanMode;
import dev.streamhouse.storage.options.ChangelogOptions.ChangelogProducer;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.manifest.PartitionBucket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Plans the changes one snapshot made as delta splits ({@link DataSplit#delta()}), one per
 * (partition, bucket), each with its files in sequence-number order. Which files hold the changes
 * depends on the commit kind and, for primary-key tables, on {@code changelog-producer}:
 *
 * <table>
 *   <caption>files read per snapshot</caption>
 *   <tr><th>commit kind</th><th>append table, or producer none</th><th>producer input</th>
 *       <th>producer lookup / full-compaction</th></tr>
 *   <tr><td>APPEND</td><td>its new data files</td><td>its changelog files</td><td>its changelog files</td></tr>
 *   <tr><td>COMPACT</td><td>skipped (rewrites, no new changes)</td><td>skipped</td><td>its changelog files</td></tr>
 *   <tr><td>OVERWRITE</td><td colspan="3">skipped; when read ({@code streaming-read-overwrite} for
 *       primary-key tables, {@code streaming-read-append-overwrite} for append tables) its new data files
 *       (removed rows are not retracted, unlike Apache Paimon's diff for primary-key tables)</td></tr>
 *   <tr><td>ANALYZE</td><td colspan="3">skipped (statistics only)</td></tr>
 * </table>
 *
 * Filters prune as for batch reads: partitions, and files by value statistics (append tables) or by
 * key range (primary-key tables). Not thread-safe.
 */
final class SnapshotChangePlanner {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotChangePlanner.class);

    /** Files of one delta split in the order their changes were made. */
    static final Comparator<DataFileMeta> SEQUENCE_ORDER = Comparator
            .comparingLong(DataFileMeta::minSequenceNumber)
            .thenComparingLong(DataFileMeta::maxSequenceNumber)
            .thenComparing(DataFileMeta::fileName);

    private final Supplier<FileStoreScan> scans;
    private final KeyFilterPruner keyPruner;
    private final boolean primaryKey;
    private final ChangelogProducer producer;
    private final boolean readOverwrite;
    private final String tableName;

    /**
     * @param scans fresh file store scans with this read's partition (and, for append tables, value)
     *     filter applied
     * @param keyPrunerOrNull drops files of a primary-key table that cannot hold a wanted key
     * @param readOverwrite whether OVERWRITE snapshots are read ({@code streaming-read-overwrite} for
     *     primary-key tables, {@code streaming-read-append-overwrite} for append tables)
     */
    SnapshotChangePlanner(Supplier<FileStoreScan> scans, KeyFilterPruner keyPrunerOrNull, boolean primaryKey,
            ChangelogProducer producer, boolean readOverwrite, String tableName) {
        this.scans = scans;
        this.keyPruner = keyPrunerOrNull;
        this.primaryKey = primaryKey;
        this.producer = primaryKey ? producer : ChangelogProducer.NONE;
        this.readOverwrite = readOverwrite;
        this.tableName = tableName;
    }

    /** Which files of {@code snapshot} hold its changes, or null if it is skipped. */
    ScanMode changeFiles(Snapshot snapshot) {
        switch (snapshot.commitKind()) {
            case APPEND:
                return producer == ChangelogProducer.NONE ? ScanMode.DELTA : ScanMode.CHANGELOG;
            case COMPACT:
                return producer == ChangelogProducer.LOOKUP || producer == ChangelogProducer.FULL_COMPACTION
                        ? ScanMode.CHANGELOG
                        : null;
            case OVERWRITE:
                if (readOverwrite) {
                    return ScanMode.DELTA;
                }
                LOG.info("Read of the changes of table {} skips snapshot {}: it is an OVERWRITE (set '{}' = "
                        + "'true' to stream the rows it adds)", tableName, snapshot.id(),
                        primaryKey ? "streaming-read-overwrite" : "streaming-read-append-overwrite");
                return null;
            case ANALYZE:
            default:
                return null;
        }
    }

    /** The delta splits of {@code snapshot}; empty if it is skipped or changed nothing wanted. */
    List<DataSplit> plan(Snapshot snapshot) throws IOException {
        ScanMode mode = changeFiles(snapshot);
        if (mode == null) {
            LOG.debug("Streaming read of table {} skips {} snapshot {}", tableName, snapshot.commitKind(), snapshot.id());
            return List.of();
        }
        return splits(snapshot, scans.get().withSnapshot(snapshot.id()).withMode(mode).plan().files());
    }

    /**
     * The delta splits of the expired snapshot whose long-lived changelog entry is {@code entry}
     * ({@code changelog/changelog-<id>}): as {@link #plan}, from the files the entry keeps.
     *
     * @throws IllegalArgumentException if the changes would be read from the snapshot's delta while
     *     only its changelog files are kept
     */
    List<DataSplit> planChangelogEntry(Snapshot entry) throws IOException {
        ScanMode mode = changeFiles(entry);
        if (mode == null) {
            return List.of();
        }
        if (mode == ScanMode.DELTA && entry.changelogManifestList() != null) {
            throw new IllegalArgumentException("Cannot read the new data files of snapshot " + entry.id()
                    + " of table " + tableName + ": the snapshot has expired and only its changelog is kept "
                    + "(changelog/changelog-" + entry.id() + "); read its changelog ('incremental-between-scan-mode'"
                    + " = 'changelog') or start after it");
        }
        return splits(entry, scans.get().withTaggedSnapshot(entry).withMode(mode).plan().files());
    }

    private List<DataSplit> splits(Snapshot snapshot, List<ManifestEntry> entries) {
        Map<PartitionBucket, List<DataFileMeta>> grouped = new LinkedHashMap<>();
        Map<PartitionBucket, Integer> totalBuckets = new LinkedHashMap<>();
        for (ManifestEntry e : entries) {
            PartitionBucket k = new PartitionBucket(e.partition(), e.bucket());
            grouped.computeIfAbsent(k, x -> new ArrayList<>()).add(e.file());
            totalBuckets.putIfAbsent(k, e.totalBuckets());
        }
        List<DataSplit> splits = new ArrayList<>(grouped.size());
        for (Map.Entry<PartitionBucket, List<DataFileMeta>> g : grouped.entrySet()) {
            List<DataFileMeta> files = keyPruner == null ? g.getValue() : keyPruner.prune(g.getValue());
            if (files.isEmpty()) {
                continue;
            }
            List<DataFileMeta> ordered = new ArrayList<>(files);
            ordered.sort(SEQUENCE_ORDER);
            PartitionBucket k = g.getKey();
            splits.add(new DataSplit(snapshot.id(), k.partition(), k.bucket(), totalBuckets.get(k), ordered, true,
                    true));
        }
        return splits;
    }
}
