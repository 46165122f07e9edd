package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * Expires a table's snapshots now, as {@code CALL sys.expire_snapshots} does: the table's retention
 * options ({@code snapshot.num-retained.min/max}, {@code snapshot.time-retained},
 * {@code snapshot.expire.limit}), each overridable for this call; and its long-lived changelogs, as
 * {@code CALL sys.expire_changelogs} does ({@link #expireChangelogs}). Files are deleted only when no
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
        int min = retainMin == null ? defaults.retainMin() : retainMin;
        int max = retainMax == null ? defaults.retainMax() : retainMax;
        Duration time = olderThanMillis == null ? defaults.timeRetained()
                : Duration.ofMillis(Math.max(0, now - olderThanMillis));
        // A changelog retention the table does not set follows its (overridden) snapshot twin.
        ExpireConfig run = new ExpireConfig(min, max, time, maxDeletes == null ? defaults.maxDeletes() : maxDeletes,
                defaults.cleanEmptyDirectories(), defaults.consumerExpiration(),
                defaults.changelogRetainMin() == defaults.retainMin() ? min : defaults.changelogRetainMin(),
                defaults.changelogRetainMax() == defaults.retainMax() ? max : defaults.changelogRetainMax(),
                defaults.changelogTimeRetained().equals(defaults.timeRetained()) ? time
                        : defaults.changelogTimeRetained());
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
     * Expires the table's long-lived changelogs ({@code changelog/changelog-<id>}, docs/format.md §10.3) now, as
     * {@code CALL sys.expire_changelogs} does in Apache Paimon 1.3: only the limits given here apply
     * ({@link #retainMax}, {@link #retainMin} (default 1), {@link #olderThanMillis}, {@link #maxDeletes}
     * (default unlimited)), counted up to the latest snapshot; without any, nothing expires. Live
     * consumers and tags protect as for snapshots. Returns how many expired.
     */
    public int expireChangelogs() {
        long now = System.currentTimeMillis();
        ExpireConfig table = ExpireConfig.from(this.table.schema().tableOptions());
        ExpireConfig run = table.withChangelogRetention(
                retainMin == null ? 1 : retainMin,
                retainMax == null ? Integer.MAX_VALUE : retainMax,
                olderThanMillis == null ? Duration.ofMillis(Long.MAX_VALUE)
                        : Duration.ofMillis(Math.max(0, now - olderThanMillis)),
                maxDeletes == null ? Integer.MAX_VALUE : maxDeletes);
        try {
            return this.table.newSnapshotExpiration().expireChangelogs(run);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot expire the changelogs of table " + this.table.fullName() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Expires every long-lived changelog that no live consumer still reads ({@code delete_all});
     * returns how many.
     */
    public int expireAllChangelogs() {
        try {
            return table.newSnapshotExpiration().expireAllChangelogs(ExpireConfig.from(table.schema().tableOptions()));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot expire the changelogs of table " + table.fullName() + ": "
                    + e.getMessage(), e);
        }
    }
}
