package dev.streamhouse.storage.io;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.Path;

import java.io.Serializable;

/**
 * Where a table's files live (docs/format.md §1.2): data files under {@code <root>/<partition path>/bucket-<b>/},
 * metadata under {@code manifest/}, {@code snapshot/}, {@code schema/}, {@code index/}.
 */
public final class TablePaths implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Path root;
    private transient PartitionPathRenderer renderer;
    private final RendererSpec spec;

    /** What is needed to rebuild the renderer after deserialization. */
    public record RendererSpec(dev.streamhouse.storage.types.RowType partitionType, String defaultName, boolean legacy)
            implements Serializable {}

    public TablePaths(Path root, RendererSpec spec) {
        this.root = root;
        this.spec = spec;
    }

    public Path root() {
        return root;
    }

    public Path manifestDir() {
        return new Path(root, "manifest");
    }

    public Path indexDir() {
        return new Path(root, "index");
    }

    public PartitionPathRenderer renderer() {
        if (renderer == null) {
            renderer = new PartitionPathRenderer(spec.partitionType(), spec.defaultName(), spec.legacy());
        }
        return renderer;
    }

    /** {@code <root>/<partition path>/bucket-<b>} (or {@code bucket-postpone} for bucket -2). */
    public Path bucketDir(BinaryRow partition, int bucket) {
        String bucketName = bucket == -2 ? "bucket-postpone" : "bucket-" + bucket;
        return new Path(root, renderer().render(partition) + bucketName);
    }

    public Path dataFile(BinaryRow partition, int bucket, String fileName) {
        return new Path(bucketDir(partition, bucket), fileName);
    }
}
