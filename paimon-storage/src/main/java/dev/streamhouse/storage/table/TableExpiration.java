package dev.streamhouse.storage.table;

import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.lifecycle.ExpireConfig;
import dev.streamhouse.storage.lifecycle.SnapshotExpiration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * Expires a table's snapshots now, as {@code CALL sys.expire_snapshots} does: the table's retention
 * options ({@code snapshot.num-retained.min/max}, {@code snapshot.time-retained},
 * {@code snapshot.expire.limit}), each overridable for this call. Files are deleted only when no
 * retained snapshot, tag or live consumer needs them (see {@code SnapshotExpiration}).
 *
 * <p>Errors: an invalid combination (e.g. retain_max below retain_min) is an
 * {@link IllegalArgumentException}; I/O failures an {@link UncheckedIOException} (what was not
 * deleted yet stays; calling again finishes the job).
 */
public final class TableExpiration {
    private final FileStoreTable table;
    private Integer retainMax;
    private Integer retainMin;
    private Integer maxDeletes;
    private Long olderThanMillis;

    private TableExpiration(FileStoreTable table) {
        this.table = table;
    }

    /** @throws UnsupportedOperationException if the table is not stored in the Paimon format */
    public static TableExpiration forTable(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot expire snapshots of table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return new TableExpiration((FileStoreTable) table);
    }

    /** Keep at most this many snapshots (default {@code snapshot.num-retained.max}). */
    public TableExpiration retainMax(int value) {
        retainMax = value;
        return this;
    }

    /** Keep at least this many snapshots (default {@code snapshot.num-retained.min}). */
    public TableExpiration retainMin(int value) {
        retainMin = value;
        return this;
    }

    /** Expire snapshots committed before this time, instead of {@code snapshot.time-retained}. */
    public TableExpiration olderThanMillis(long value) {
        olderThanMillis = value;
        return this;
    }

    /** Expire at most this many snapshots (default {@code snapshot.expire.limit}). */
    public TableExpiration maxDeletes(int value) {
        maxDeletes = value;
        return this;
    }

    /** Runs the expiration; returns how many snapshots expired. */
    public int expireSnapshots() {
        long now = System.currentTimeMillis();
        ExpireConfig defaults = ExpireConfig.from(table.schema().tableOptions());
        ExpireConfig run = new ExpireConfig(
                retainMin == null ? defaults.retainMin() : retainMin,
                retainMax == null ? defaults.retainMax() : retainMax,
                olderThanMillis == null ? defaults.timeRetained() : Duration.ofMillis(Math.max(0, now - olderThanMillis)),
                maxDeletes == null ? defaults.maxDeletes() : maxDeletes,
                defaults.cleanEmptyDirectories(), defaults.consumerExpiration());
        SnapshotExpiration expiration = table.newSnapshotExpiration();
        try {
            expiration.expireConsumers(run);
            return expiration.expire(run);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot expire snapshots of table " + table.fullName() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The number of long-lived changelogs ({@code changelog/changelog-<id>}, FORMAT §10.3) the table
     * has. This store keeps a snapshot's changelog exactly as long as the snapshot, so tables it writes
     * have none; a table written by Apache Paimon with {@code changelog.*} retention may.
     */
    public int longLivedChangelogCount() {
        int count = 0;
        try {
            for (FileStatus status : table.fileIO().list(new Path(table.location(), "changelog"))) {
                String name = status.path().name();
                if (!status.isDirectory() && name.startsWith("changelog-")) {
                    count++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the changelogs of table " + table.fullName(), e);
        }
        return count;
    }
}
