package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.io.PartitionPathRenderer;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * What a table keeps in step in its catalog's metastore, carried by the table to whoever commits or tags:
 * either the partitions of its files ({@code metastore.partitioned-table}; {@link #tagKey} null), kept by
 * its commits, or its tags as partitions of one string key ({@code metastore.tag-to-partition} =
 * {@link #tagKey}), kept by the creation, renaming and deletion of tags.
 */
public record MetastorePartitions(PartitionRegistry registry, String tagKey) implements Serializable {

    /** The partitions of the table's files. */
    public static MetastorePartitions ofData(PartitionRegistry registry) {
        return new MetastorePartitions(registry, null);
    }

    /** The table's tags, each the partition {@code tagKey = <tag name>}. */
    public static MetastorePartitions ofTags(PartitionRegistry registry, String tagKey) {
        return new MetastorePartitions(registry, tagKey);
    }

    public boolean isTags() {
        return tagKey != null;
    }

    /** Registers the partitions of new (or moved) tags. */
    public void tagsCreated(List<String> tags) {
        registry.register(tags.stream().map(tag -> new PartitionRegistry.Partition(spec(tag),
                PartitionPathRenderer.escape(tagKey) + "=" + PartitionPathRenderer.escape(tag) + "/")).toList());
    }

    /** Unregisters the partitions of deleted (or moved) tags. */
    public void tagsDeleted(List<String> tags) {
        if (!tags.isEmpty()) {
            registry.unregister(tags.stream().map(this::spec).toList());
        }
    }

    private LinkedHashMap<String, String> spec(String tag) {
        LinkedHashMap<String, String> spec = new LinkedHashMap<>();
        spec.put(tagKey, tag);
        return spec;
    }
}
