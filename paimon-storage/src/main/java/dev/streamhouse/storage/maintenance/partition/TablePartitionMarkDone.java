package dev.streamhouse.storage.maintenance.partition;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.io.PartitionPathRenderer;
import dev.streamhouse.storage.options.PartitionLifecycleOptions;
import dev.streamhouse.storage.schema.MetadataJson;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Marks partitions of a table done, as {@code CALL sys.mark_partition_done} does, with the actions of
 * {@code partition.mark-done-action}. Only {@code success-file} is implemented: it writes
 * {@code <partition directory>/_SUCCESS}, JSON {@code {"creationTime": millis, "modificationTime":
 * millis}} (Apache Paimon's file; marking again keeps the creation time). The other actions
 * ({@code done-partition}, {@code mark-event}, {@code http-report}, {@code custom}) need a metastore or
 * a server and are refused, naming the action, before anything is written.
 *
 * <p>Errors: {@link IllegalArgumentException} for a spec that does not name exactly the partition keys;
 * {@link UnsupportedOperationException} for an action other than success-file;
 * {@link UncheckedIOException} naming the file when it cannot be written.
 */
public final class TablePartitionMarkDone {
    /** The name of the success file in a partition directory. */
    public static final String SUCCESS_FILE_NAME = "_SUCCESS";

    private final FileStoreTable table;

    private TablePartitionMarkDone(FileStoreTable table) {
        this.table = table;
    }

    /**
     * @throws UnsupportedOperationException if the table is not stored in the Paimon format, or its
     *     {@code partition.mark-done-action} has an action other than success-file
     * @throws IllegalArgumentException if the table is not partitioned
     */
    public static TablePartitionMarkDone of(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot mark partitions of table " + table.fullName()
                    + " done: it is not a table stored in the Paimon format");
        }
        if (table.partitionKeys().isEmpty()) {
            throw new IllegalArgumentException("Cannot mark partitions of table " + table.fullName()
                    + " done: it is not partitioned");
        }
        FileStoreTable stored = (FileStoreTable) table;
        String actions = stored.schema().tableOptions().get(PartitionLifecycleOptions.PARTITION_MARK_DONE_ACTION);
        for (String action : actions.split(",")) {
            if (!"success-file".equals(action.trim().toLowerCase(Locale.ROOT))) {
                throw new UnsupportedOperationException("Cannot mark partitions of table " + table.fullName()
                        + " done with action '" + action.trim() + "' of 'partition.mark-done-action' = '" + actions
                        + "': only 'success-file' is supported");
            }
        }
        return new TablePartitionMarkDone(stored);
    }

    /**
     * Writes the success file of each partition (full specs: a value for every partition key).
     *
     * @return the success files written
     */
    public List<Path> markDone(List<Map<String, String>> partitions, long nowMillis) {
        List<Path> paths = new ArrayList<>();
        for (Map<String, String> spec : partitions) {
            paths.add(new Path(table.location(), directory(spec) + SUCCESS_FILE_NAME));
        }
        FileIO fileIO = table.fileIO();
        for (Path path : paths) {
            try {
                long created = nowMillis;
                try {
                    JsonNode old = MetadataJson.parseObject(fileIO.readUtf8(path));
                    if (old.has("creationTime")) {
                        created = old.get("creationTime").asLong();
                    }
                } catch (FileNotFoundException e) {
                    // first mark
                }
                long creationTime = created;
                String json = MetadataJson.render(g -> {
                    g.writeStartObject();
                    g.writeNumberField("creationTime", creationTime);
                    g.writeNumberField("modificationTime", nowMillis);
                    g.writeEndObject();
                });
                fileIO.overwrite(path, json.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write success file " + path + " of table " + table.fullName(), e);
            }
        }
        return paths;
    }

    private String directory(Map<String, String> spec) {
        List<String> keys = table.partitionKeys();
        if (!spec.keySet().equals(new java.util.HashSet<>(keys))) {
            throw new IllegalArgumentException("Cannot mark partition " + spec + " of table " + table.fullName()
                    + " done: a partition needs a value for each partition key " + keys + " and nothing else");
        }
        StringBuilder sb = new StringBuilder();
        for (String key : keys) {
            sb.append(PartitionPathRenderer.escape(key)).append('=').append(PartitionPathRenderer.escape(spec.get(key)))
                    .append('/');
        }
        return sb.toString();
    }
}
