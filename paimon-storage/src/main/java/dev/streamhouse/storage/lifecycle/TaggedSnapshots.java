package dev.streamhouse.storage.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.MetadataJson;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotSerializer;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The snapshots whose files must survive snapshot expiration although the snapshots themselves may
 * expire: the tagged ones ({@code tag/tag-<name>}, FORMAT §11.1).
 *
 * <p>Contract: {@link #snapshots()} returns every such snapshot; one it cannot read is an
 * {@link IOException} (never a silently shorter list), so expiration stops rather than delete files a
 * tag needs. The table's tag manager provides it ({@code TagManager#taggedSnapshots}).
 */
@FunctionalInterface
public interface TaggedSnapshots {

    /** The protected snapshots, in no particular order. */
    List<Snapshot> snapshots() throws IOException;

    /** No snapshot is protected. */
    TaggedSnapshots NONE = List::of;

    /**
     * Parses every {@code <prefix><suffix>} file of a directory of snapshot JSON files (e.g. the
     * long-lived changelogs {@code changelog/changelog-<id>}); a file deleted between listing and
     * reading is skipped, an unreadable one fails the call.
     */
    static TaggedSnapshots inDirectory(FileIO fileIO, Path dir, String prefix) {
        return () -> {
            List<Snapshot> out = new ArrayList<>();
            for (FileStatus status : fileIO.list(dir)) {
                String name = status.path().name();
                if (status.isDirectory() || !name.startsWith(prefix) || name.length() == prefix.length()) {
                    continue;
                }
                String json;
                try {
                    json = fileIO.readUtf8(status.path());
                } catch (FileNotFoundException e) {
                    continue;
                }
                try {
                    JsonNode node = MetadataJson.parseObject(json);
                    ((ObjectNode) node).remove(List.of("tagCreateTime", "tagTimeRetained"));
                    out.add(SnapshotSerializer.fromJson(node.toString()));
                } catch (RuntimeException e) {
                    throw new IOException("Cannot read " + status.path() + " as a snapshot: " + e.getMessage()
                            + "; fix or delete it before expiring snapshots", e);
                }
            }
            return out;
        };
    }
}
