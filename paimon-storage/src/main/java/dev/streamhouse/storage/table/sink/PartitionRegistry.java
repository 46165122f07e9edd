package dev.streamhouse.storage.table.sink;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A list of a table's partitions kept outside the table, which commits keep in step: a Hive metastore's
 * partitions of a table with {@code metastore.partitioned-table}. It travels with the table to the tasks
 * that commit. A commit registers the partitions its new files belong to (again, if they are there
 * already) and unregisters those it drops; a failure is thrown after the commit landed, naming the
 * registry, so that the table's data is never in doubt, only the registry's copy of its partition list.
 */
public interface PartitionRegistry extends Serializable {

    /** Registers the partitions, skipping those registered already. */
    void register(List<Partition> partitions);

    /**
     * Unregisters the partitions matching any of the specs; a spec without some partition keys matches
     * every value of them, the empty spec every partition.
     */
    void unregister(List<LinkedHashMap<String, String>> specs);

    /**
     * A partition: its values as strings in partition-key order (the table's {@code partition.default-name}
     * for NULL) and its directory relative to the table's, ending with '/'.
     */
    record Partition(LinkedHashMap<String, String> spec, String relativePath) implements Serializable {}
}
