package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.ManifestOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Reads a primary-key table's changelog the way a streaming reader of {@code changelog-producer = input}
 * sees it, through the storage's own manifest and file classes: for every snapshot, its changelog
 * manifest list, their entries, and the records of each changelog file.
 */
public final class ChangelogRecords {
    private ChangelogRecords() {}

    /** One record of a changelog file, with where it was found. */
    public record Change(long snapshotId, CommitKind commitKind, BinaryRow partition, int bucket, DataFileMeta file,
            long sequenceNumber, GenericRow value) {
        /** The value with its row kind, e.g. {@code +I(1, 10, a)}. */
        public String show() {
            return value.toString();
        }
    }

    /** One changelog manifest entry, with its snapshot. */
    public record ChangelogFile(Snapshot snapshot, ManifestEntry entry) {}

    /** Every changelog manifest entry of every snapshot, oldest snapshot first. */
    public static List<ChangelogFile> files(FileStoreTable table) throws IOException {
        Options o = table.schema().tableOptions();
        ManifestList lists = new ManifestList(table.fileIO(), table.paths().manifestDir(),
                o.get(ManifestOptions.MANIFEST_COMPRESSION), o.get(FileFormatOptions.ZSTD_LEVEL));
        ManifestFile manifests = new ManifestFile(table.fileIO(), table.paths().manifestDir(),
                table.schema().partitionType(), o.get(ManifestOptions.MANIFEST_COMPRESSION),
                o.get(FileFormatOptions.ZSTD_LEVEL), o.get(ManifestOptions.MANIFEST_TARGET_FILE_SIZE).bytes());
        List<ChangelogFile> out = new ArrayList<>();
        Long earliest = table.snapshotManager().earliestSnapshotId();
        Long latest = table.snapshotManager().latestSnapshotId();
        if (earliest == null) {
            return out;
        }
        Iterator<Snapshot> it = table.snapshotManager().snapshotsAscending(earliest, latest);
        while (it.hasNext()) {
            Snapshot s = it.next();
            if (s.changelogManifestList() == null) {
                continue;
            }
            for (ManifestFileMeta m : lists.read(s.changelogManifestList(), s.changelogManifestListSize())) {
                for (ManifestEntry e : manifests.read(m.fileName(), m.fileSize())) {
                    if (e.kind() != FileKind.ADD) {
                        throw new AssertionError("changelog manifest of snapshot " + s.id() + " has a " + e.kind()
                                + " entry for " + e.file().fileName());
                    }
                    out.add(new ChangelogFile(s, e));
                }
            }
        }
        return out;
    }

    /** Every record of every changelog file of every snapshot, in snapshot, then file, then file order. */
    public static List<Change> read(FileStoreTable table) throws IOException {
        return readAfter(table, 0);
    }

    /** Like {@link #read}, for the snapshots after {@code snapshotId} only. */
    public static List<Change> readAfter(FileStoreTable table, long snapshotId) throws IOException {
        KeyValueLayout layout = KeyValueLayout.of(table.schema());
        int[] all = new int[table.schema().fields().size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        KeyValueFileReaderFactory readers = new KeyValueFileReaderFactory(table.fileIO(), table.paths(), layout,
                table.schemaCache(), all, null);
        RowType valueType = readers.valueReadType();
        List<Change> out = new ArrayList<>();
        for (ChangelogFile f : files(table)) {
            if (f.snapshot().id() <= snapshotId) {
                continue;
            }
            ManifestEntry e = f.entry();
            readers.createReader(e.partition(), e.bucket(), e.file()).forEachRemaining(kv -> {
                GenericRow value = InternalRowUtils.copyToGeneric(kv.value(), valueType);
                value.setRowKind(kv.valueKind());
                out.add(new Change(f.snapshot().id(), f.snapshot().commitKind(), e.partition(), e.bucket(), e.file(),
                        kv.sequenceNumber(), value));
            });
        }
        return out;
    }
}
