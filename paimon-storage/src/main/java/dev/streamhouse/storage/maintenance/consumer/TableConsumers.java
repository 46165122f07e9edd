package dev.streamhouse.storage.maintenance.consumer;

import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The named consumers of a table (docs/format.md §11.3), for maintenance: what {@code CALL sys.reset_consumer}
 * and {@code CALL sys.clear_consumers} change. A consumer is a streaming reader's saved progress (the
 * next snapshot it reads); a reader started with that {@code consumer-id} resumes there.
 *
 * <p>Errors: {@link IllegalArgumentException} for an invalid consumer id or a snapshot that does not
 * exist; {@link UncheckedIOException} naming the table when a consumer file cannot be read or written.
 */
public final class TableConsumers {
    private final FileStoreTable table;
    private final ConsumerManager consumers;

    private TableConsumers(FileStoreTable table) {
        this.table = table;
        this.consumers = new ConsumerManager(table.fileIO(), table.location());
    }

    /**
     * The consumers of {@code table}.
     *
     * @throws UnsupportedOperationException if the table is not stored in the Paimon format
     */
    public static TableConsumers of(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot manage the consumers of table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return new TableConsumers((FileStoreTable) table);
    }

    /** Every consumer with its next snapshot, by id (sorted). */
    public Map<String, Long> list() {
        try {
            return consumers.list();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the consumers of table " + table.fullName(), e);
        }
    }

    /**
     * Sets consumer {@code consumerId} (creating it if needed) to read snapshot {@code nextSnapshotId}
     * next. As in Apache Paimon, the snapshot must exist.
     *
     * @throws IllegalArgumentException if snapshot {@code nextSnapshotId} does not exist
     */
    public void reset(String consumerId, long nextSnapshotId) {
        if (table.snapshot(nextSnapshotId).isEmpty()) {
            throw new IllegalArgumentException("Cannot reset consumer '" + consumerId + "' of table "
                    + table.fullName() + " to snapshot " + nextSnapshotId + ": the snapshot does not exist "
                    + "(t$snapshots lists the snapshots there are)");
        }
        try {
            consumers.commit(consumerId, nextSnapshotId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes consumer {@code consumerId}; nothing happens if it does not exist. */
    public void delete(String consumerId) {
        try {
            consumers.delete(consumerId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Deletes the consumers whose id matches {@code including} entirely and does not match
     * {@code excluding} (null: nothing is excluded), as {@code CALL sys.clear_consumers} does.
     *
     * @return the ids deleted, sorted
     */
    public List<String> clear(Pattern including, Pattern excluding) {
        List<String> deleted = new ArrayList<>();
        for (String id : list().keySet()) {
            if (including.matcher(id).matches() && (excluding == null || !excluding.matcher(id).matches())) {
                delete(id);
                deleted.add(id);
            }
        }
        return deleted;
    }
}
