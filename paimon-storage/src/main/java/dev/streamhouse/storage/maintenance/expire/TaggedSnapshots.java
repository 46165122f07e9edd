package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.IOException;
import java.util.List;

/**
 * The snapshots whose files must survive snapshot expiration although the snapshots themselves may
 * expire: the tagged ones ({@code tag/tag-<name>}, docs/format.md §11.1).
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
}
