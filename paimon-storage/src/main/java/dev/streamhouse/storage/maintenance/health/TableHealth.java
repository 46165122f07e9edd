package dev.streamhouse.storage.maintenance.health;

import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The health of a table, computed from its metadata only (the latest snapshot's manifests and data-file
 * metadata, its deletion-vector index, snapshot, changelog, consumer and tag files, options and
 * partitions): no data file is read. {@link #check()} returns the findings, most severe first; a
 * healthy table has none. Every threshold comes from the table's own options ({@link HealthThresholds}),
 * so a table tuned differently is judged by its own settings, and every finding names one statement
 * that fixes it. What {@code t$table_health} and {@code CALL sys.table_health} show.
 *
 * <p>The checks (name, scope, threshold and why):
 * <ol>
 *   <li>{@code level0_files} (bucket, level 0; primary-key tables): level-0 files at
 *       {@code num-sorted-run.compaction-trigger} (MEDIUM) or {@code num-sorted-run.stop-trigger} (HIGH,
 *       writes stall). Each level-0 file is a sorted run every read merges. Fix: compact the partition.</li>
 *   <li>{@code large_level0_files} (bucket, level 0): a level-0 file larger than
 *       {@code write-buffer-size}; a flushed buffer is compressed, so such a file came from a spilled
 *       buffer, and compaction rewrites it whole (LOW). Fix: compact the partition.</li>
 *   <li>{@code size_amplification} (bucket): the sorted runs above the bucket's highest level together
 *       larger than {@code compaction.max-size-amplification-percent} of it, the universal compaction
 *       rule for a full compaction that the writer has not run (MEDIUM). {@code compaction.size-ratio}
 *       only steers which runs a compaction merges once the trigger is reached, which
 *       {@code level0_files} covers. Fix: compact the partition.</li>
 *   <li>{@code small_files} (bucket): files under 70 % of {@code target-file-size} (the writers' own
 *       compaction-candidate size), at least the compaction trigger (primary key) or
 *       {@code compaction.min.file-num} (append) of them (MEDIUM). Fix: compact the partition.</li>
 *   <li>{@code deleted_rows} (bucket): deleted rows (retractions in the files' {@code deleteRowCount}
 *       plus deletion-vector cardinalities) over stored rows above
 *       {@code compaction.delete-ratio-threshold} (MEDIUM). Fix: compact the partition.</li>
 *   <li>{@code dynamic_bucket_overflow} (bucket; {@code bucket = -1}): stored rows minus deleted rows
 *       above {@code dynamic-bucket.target-row-num} (MEDIUM). With versions not compacted yet the fix is
 *       compaction; a bucket that is one sorted run really holds that many keys (they were assigned under
 *       a larger target, and keys never move), so the fix raises the target to what it holds.</li>
 *   <li>{@code file_count} (table): live files above the sum over buckets of an allowance (the stop
 *       trigger, or {@code compaction.min.file-num} for append tables) plus the bucket's bytes divided
 *       by {@code target-file-size} (LOW). Fix: compact the table.</li>
 *   <li>{@code bucket_skew} (bucket; fixed buckets, more than one): a bucket with at least
 *       {@code target-file-size} bytes and more than {@code 1 + compaction.max-size-amplification-percent/100}
 *       times its partition's mean bytes (mean over the {@code bucket} option's buckets) that still holds
 *       several sorted runs or deletions (LOW). Fix: compact the partition. A compacted bucket that is
 *       skewed is not reported: its keys are skewed, which no statement fixes short of a new table with
 *       another bucket key (rescaling adds buckets, which raises the ratio).</li>
 *   <li>{@code snapshots_retained} (table): more snapshots than {@code snapshot.num-retained.max}
 *       (MEDIUM), or more than {@code snapshot.num-retained.min} with the earliest older than
 *       {@code snapshot.time-retained} (LOW). Fix: {@code CALL sys.expire_snapshots}.</li>
 *   <li>{@code changelogs_retained} (table): long-lived changelogs (in {@code changelog/}) that, counted
 *       with the snapshots as Apache Paimon counts them, exceed {@code changelog.num-retained.max}
 *       (MEDIUM). Fix: {@code CALL sys.expire_changelogs} with that maximum.</li>
 *   <li>{@code consumer_lag} (consumer): a consumer's next snapshot older than
 *       {@code snapshot.time-retained} and more than {@code snapshot.num-retained.min} snapshots behind
 *       the latest (MEDIUM); {@code consumer_expired}: a consumer file not updated for
 *       {@code consumer.expiration-time}, when that is set (HIGH). Fix: {@code CALL sys.reset_consumer}
 *       without a snapshot, which deletes the consumer.</li>
 *   <li>{@code partition_expired} (partition): partitions past {@code partition.expiration-time}, as
 *       partition expiration would judge them (MEDIUM). Fix: {@code CALL sys.expire_partitions}.</li>
 *   <li>{@code tag_expired} (tag): a tag past its {@code time_retained} (LOW), fix
 *       {@code CALL sys.expire_tags}; {@code tags_retained} (table): more tags than
 *       {@code tag.num-retained-max} (LOW), fix {@code CALL sys.delete_tag} of the oldest.</li>
 *   <li>{@code file_index} (table; primary-key tables with at least
 *       {@code 8 x target-file-size} bytes and no {@code file-index.bloom-filter.columns}): primary-key
 *       columns outside the bucket key, which point lookups filter on but neither bucket pruning nor
 *       (for a non-leading key column) min/max statistics narrow down (LOW). Fix: an
 *       {@code ALTER TABLE ... SET ('file-index.bloom-filter.columns' = ...)} naming them. This store
 *       records the option but does not write file indexes yet; Apache Paimon writers of the same
 *       table do.</li>
 * </ol>
 *
 * <p>Errors: an {@link UncheckedIOException} naming the table if its metadata cannot be read;
 * {@link UnsupportedOperationException} for a table not stored in the Paimon format.
 */
public final class TableHealth {
    /** Tables smaller than this many target files get no file-index advice. */
    static final int FILE_INDEX_MIN_TARGET_FILES = 8;

    private final FileStoreTable table;

    private TableHealth(FileStoreTable table) {
        this.table = table;
    }

    /**
     * The health of {@code table} (its latest snapshot and current options).
     *
     * @throws UnsupportedOperationException if the table is not stored in the Paimon format
     */
    public static TableHealth of(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot check the health of table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return new TableHealth((FileStoreTable) table);
    }

    /** The findings now, most severe first, then by check and scope. */
    public List<HealthFinding> check() {
        return check(System.currentTimeMillis());
    }

    /** The findings at wall-clock time {@code nowMillis}. */
    public List<HealthFinding> check(long nowMillis) {
        HealthThresholds limits = HealthThresholds.of(table.schema());
        Statements sql = new Statements(table.fullName());
        List<HealthFinding> out = new ArrayList<>();
        try {
            TableLayout layout = layout();
            new LayoutChecks(limits, sql, out).run(layout);
            fileIndex(layout, limits, sql, out);
            new LifecycleChecks(table, limits, sql, out, nowMillis).run();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot check the health of table " + table.fullName() + ": "
                    + e.getMessage(), e);
        }
        out.sort(Comparator.comparing(HealthFinding::severity).thenComparing(HealthFinding::check)
                .thenComparing(HealthFinding::scope));
        return out;
    }

    /** The layout of the latest snapshot (empty without snapshots). */
    public TableLayout layout() throws IOException {
        Optional<Snapshot> latest = table.snapshotManager().latestSnapshot();
        return latest.isEmpty() ? TableLayout.empty() : TableLayout.of(table, latest.get());
    }

    /** The table's thresholds. */
    public HealthThresholds thresholds() {
        return HealthThresholds.of(table.schema());
    }

    private void fileIndex(TableLayout layout, HealthThresholds limits, Statements sql, List<HealthFinding> out) {
        if (!limits.primaryKey() || limits.bloomFilterColumns() != null) {
            return;
        }
        long bytes = layout.buckets().stream().mapToLong(TableLayout.BucketStats::bytes).sum();
        long minBytes = FILE_INDEX_MIN_TARGET_FILES * limits.targetFileBytes();
        if (bytes < minBytes) {
            return;
        }
        List<String> candidates = new ArrayList<>(table.schema().trimmedPrimaryKeys());
        candidates.removeAll(table.schema().bucketKeys());
        if (candidates.isEmpty()) {
            return;
        }
        String columns = String.join(",", candidates);
        out.add(new HealthFinding(Severity.LOW, "file_index", "table", bytes + " bytes", minBytes + " bytes",
                "primary-key columns " + columns + " are not in the bucket key, so lookups by them scan every "
                        + "file of a bucket; a bloom filter per file lets readers skip files (Apache Paimon's "
                        + "writers and readers of this table use it; this store records it but does not write or "
                        + "use file indexes yet)",
                sql.alter(HealthThresholds.BLOOM_FILTER_COLUMNS, columns), null));
    }
}
