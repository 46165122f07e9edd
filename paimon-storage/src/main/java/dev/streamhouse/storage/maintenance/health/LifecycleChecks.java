package dev.streamhouse.storage.maintenance.health;

import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.maintenance.partition.TablePartitionExpiration;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Partition;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The checks of a table's metadata lifecycle (snapshots, changelogs, consumers, partitions, tags), one
 * method per check; see {@link TableHealth} for what each measures and why.
 */
final class LifecycleChecks {
    private final FileStoreTable table;
    private final HealthThresholds limits;
    private final Statements sql;
    private final List<HealthFinding> out;
    private final long nowMillis;

    LifecycleChecks(FileStoreTable table, HealthThresholds limits, Statements sql, List<HealthFinding> out,
            long nowMillis) {
        this.table = table;
        this.limits = limits;
        this.sql = sql;
        this.out = out;
        this.nowMillis = nowMillis;
    }

    void run() throws IOException {
        snapshotsRetained();
        changelogsRetained();
        consumers();
        partitionsExpired();
        tags();
    }

    /**
     * snapshots_retained: more snapshot files than snapshot.num-retained.max (MEDIUM), or more than
     * snapshot.num-retained.min while the earliest is older than snapshot.time-retained (LOW): expiration
     * is not running (write-only tables leave it to a maintenance job).
     */
    private void snapshotsRetained() throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        List<Long> ids = snapshots.listSnapshotIds();
        int count = ids.size();
        if (count > limits.snapshotsMax()) {
            add(Severity.MEDIUM, "snapshots_retained", "table", Integer.toString(count),
                    Integer.toString(limits.snapshotsMax()),
                    count + " snapshots are kept, more than snapshot.num-retained.max: expiration is not running",
                    sql.expireSnapshots());
            return;
        }
        if (count <= limits.snapshotsMin()) {
            return;
        }
        Snapshot earliest = snapshots.snapshot(ids.get(0));
        long ageMillis = nowMillis - earliest.timeMillis();
        if (ageMillis > limits.snapshotTimeRetained().toMillis()) {
            add(Severity.LOW, "snapshots_retained", "table", count + " snapshots, oldest " + duration(ageMillis),
                    limits.snapshotsMin() + " snapshots, " + duration(limits.snapshotTimeRetained().toMillis()),
                    count + " snapshots are kept, more than snapshot.num-retained.min, and the earliest is older than "
                            + "snapshot.time-retained: expiration is not running",
                    sql.expireSnapshots());
        }
    }

    /**
     * changelogs_retained: long-lived changelog files exist and, counted with the snapshots (as Apache
     * Paimon counts them), exceed changelog.num-retained.max.
     */
    private void changelogsRetained() throws IOException {
        int longLived = new ChangelogManager(table.fileIO(), table.location()).listChangelogIds().size();
        if (longLived == 0) {
            return;
        }
        int count = longLived + table.snapshotManager().listSnapshotIds().size();
        if (count <= limits.changelogsMax()) {
            return;
        }
        add(Severity.MEDIUM, "changelogs_retained", "table", Integer.toString(count),
                Integer.toString(limits.changelogsMax()),
                count + " changelogs are kept (" + longLived + " long-lived ones in changelog/ and the snapshots'), "
                        + "more than changelog.num-retained.max",
                sql.expireChangelogs(limits.changelogsMax()));
    }

    /**
     * consumer_lag: a consumer whose next snapshot is older than snapshot.time-retained and more than
     * snapshot.num-retained.min snapshots behind the latest pins snapshots expiration would delete
     * (MEDIUM); one not updated for consumer.expiration-time, when set, is abandoned (HIGH).
     */
    private void consumers() throws IOException {
        ConsumerManager consumers = new ConsumerManager(table.fileIO(), table.location());
        Long latest = table.snapshotManager().latestSnapshotId();
        if (latest == null) {
            return;
        }
        for (Map.Entry<String, Long> c : consumers.list().entrySet()) {
            long next = c.getValue();
            long lag = latest - next + 1;
            Duration expiration = limits.consumerExpiration();
            if (expiration != null) {
                FileStatus status = table.fileIO().status(consumers.consumerPath(c.getKey()));
                long idleMillis = nowMillis - status.modificationTimeMillis();
                if (idleMillis > expiration.toMillis()) {
                    add(Severity.HIGH, "consumer_expired", "consumer=" + c.getKey(), duration(idleMillis),
                            duration(expiration.toMillis()),
                            "consumer '" + c.getKey() + "' has not moved for longer than consumer.expiration-time and "
                                    + "still pins snapshot " + next,
                            sql.resetConsumer(c.getKey()));
                    continue;
                }
            }
            if (lag <= limits.snapshotsMin() || !table.snapshotManager().snapshotExists(next)) {
                continue;
            }
            long ageMillis = nowMillis - table.snapshotManager().snapshot(next).timeMillis();
            if (ageMillis > limits.snapshotTimeRetained().toMillis()) {
                add(Severity.MEDIUM, "consumer_lag", "consumer=" + c.getKey(), lag + " snapshots",
                        limits.snapshotsMin() + " snapshots",
                        "consumer '" + c.getKey() + "' reads snapshot " + next + ", " + lag + " behind the latest and "
                                + "older than snapshot.time-retained: it keeps snapshots expiration would delete",
                        sql.resetConsumer(c.getKey()));
            }
        }
    }

    /** partition_expired: partitions older than partition.expiration-time still there. */
    private void partitionsExpired() {
        if (limits.partitionExpiration() == null || table.schema().partitionKeys().isEmpty()) {
            return;
        }
        LocalDateTime now = LocalDateTime.ofInstant(Instant.ofEpochMilli(nowMillis), ZoneId.systemDefault());
        for (Partition p : TablePartitionExpiration.of(table).expiredPartitions(now)) {
            add(Severity.MEDIUM, "partition_expired", "partition=" + TableLayout.BucketStats.partitionText(p.spec()),
                    p.fileSizeInBytes() + " bytes", duration(limits.partitionExpiration().toMillis()),
                    "the partition is older than partition.expiration-time and still holds " + p.recordCount()
                            + " rows: expiration did not run",
                    sql.expirePartitions());
        }
    }

    /** tags_retained: tags whose retention passed (LOW), and more tags than tag.num-retained-max (LOW). */
    private void tags() {
        List<TableTags.TagInfo> tags = TableTags.of(table).list();
        LocalDateTime now = LocalDateTime.ofInstant(Instant.ofEpochMilli(nowMillis), ZoneId.systemDefault());
        for (TableTags.TagInfo t : tags) {
            if (t.timeRetained() != null && t.createTime() != null && now.isAfter(t.createTime().plus(t.timeRetained()))) {
                add(Severity.LOW, "tag_expired", "tag=" + t.name(),
                        duration(Duration.between(t.createTime(), now).toMillis()), duration(t.timeRetained().toMillis()),
                        "tag '" + t.name() + "' outlived its time_retained and still keeps snapshot "
                                + t.snapshot().id() + "'s files",
                        sql.expireTags());
            }
        }
        if (limits.tagsMax() != null && tags.size() > limits.tagsMax()) {
            List<String> oldest = new ArrayList<>();
            for (int i = 0; i < tags.size() - limits.tagsMax(); i++) {
                oldest.add(tags.get(i).name());
            }
            add(Severity.LOW, "tags_retained", "table", Integer.toString(tags.size()), Integer.toString(limits.tagsMax()),
                    tags.size() + " tags are kept, more than tag.num-retained-max; the oldest " + oldest.size()
                            + " keep their snapshots' files",
                    sql.deleteTags(String.join(",", oldest)));
        }
    }

    private void add(Severity severity, String check, String scope, String measured, String threshold,
            String description, String recommendation) {
        out.add(new HealthFinding(severity, check, scope, measured, threshold, description, recommendation, null));
    }

    /**
     * A duration as text: in its largest exact unit when it is a whole number of days, hours, minutes or
     * seconds ({@code 1 d}, {@code 90 min}); otherwise approximate ({@code 250 ms}, {@code 90 s},
     * {@code 12 min}, {@code 3 h}, {@code 2 d}).
     */
    static String duration(long millis) {
        long[] units = {86_400_000L, 3_600_000L, 60_000L, 1000L};
        String[] names = {" d", " h", " min", " s"};
        for (int i = 0; i < units.length; i++) {
            if (millis >= units[i] && millis % units[i] == 0) {
                return millis / units[i] + names[i];
            }
        }
        if (millis < 10_000) {
            return millis + " ms";
        }
        long s = millis / 1000;
        if (s < 120) {
            return s + " s";
        }
        if (s < 7200) {
            return s / 60 + " min";
        }
        if (s < 172800) {
            return s / 3600 + " h";
        }
        return s / 86400 + " d";
    }
}
