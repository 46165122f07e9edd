package dev.streamhouse.flink.source.split.v1;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the storage {@code DataSplit} of a source split written by split serializer version 1, which
 * embedded it in Java serialization. Storage's classes are no longer Java-serializable, so this reads
 * the stream into frozen copies of their version-1 serial forms (this package) and converts them.
 *
 * <p>Only the classes such a stream holds are resolved: the five storage classes (to their frozen
 * copies) and the JDK classes their fields used. Any other class fails the read, so checkpoint bytes
 * never instantiate arbitrary classes. Thread-safe (no state).
 */
public final class DataSplitV1Reader {
    private static final Map<String, Class<?>> FROZEN = Map.of(
            "dev.streamhouse.storage.table.source.DataSplit", DataSplit.class,
            "dev.streamhouse.storage.manifest.DataFileMeta", DataFileMeta.class,
            "dev.streamhouse.storage.stats.SimpleStats", SimpleStats.class,
            "dev.streamhouse.storage.data.BinaryRow", BinaryRow.class,
            "dev.streamhouse.storage.manifest.FileSource", FileSource.class);
    /** JDK classes in version-1 streams: immutable lists (as their serial proxy), boxed longs, arrays. */
    private static final Set<String> JDK = Set.of("java.util.CollSer", "java.lang.Long", "java.lang.Number",
            "java.lang.Enum", "[Ljava.lang.Long;", "[B");

    private DataSplitV1Reader() {}

    /** The split in {@code javaSerialized}, the data split bytes of a version-1 source split. */
    public static dev.streamhouse.storage.table.source.DataSplit read(byte[] javaSerialized) throws IOException {
        Object read;
        try (ObjectInputStream in = new FrozenClassesInputStream(new ByteArrayInputStream(javaSerialized))) {
            read = in.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException("Cannot read a data split of source split version 1: " + e.getMessage(), e);
        }
        if (!(read instanceof DataSplit)) {
            throw new IOException("Cannot read a data split of source split version 1: the bytes hold a "
                    + (read == null ? "null" : read.getClass().getSimpleName()) + ", not a data split");
        }
        DataSplit s = (DataSplit) read;
        List<dev.streamhouse.storage.manifest.DataFileMeta> files = new ArrayList<>(s.files().size());
        for (DataFileMeta f : s.files()) {
            files.add(convert(f));
        }
        return new dev.streamhouse.storage.table.source.DataSplit(s.snapshotId(), convert(s.partition()), s.bucket(),
                s.totalBuckets(), files, s.rawConvertible(), s.delta());
    }

    private static dev.streamhouse.storage.manifest.DataFileMeta convert(DataFileMeta f) {
        return new dev.streamhouse.storage.manifest.DataFileMeta(f.fileName(), f.fileSize(), f.rowCount(),
                convert(f.minKey()), convert(f.maxKey()), convert(f.keyStats()), convert(f.valueStats()),
                f.minSequenceNumber(), f.maxSequenceNumber(), f.schemaId(), f.level(), f.extraFiles(),
                f.creationTimeMillis(), f.deleteRowCount(), f.embeddedIndex(),
                f.fileSource() == null ? null : dev.streamhouse.storage.manifest.FileSource.valueOf(f.fileSource().name()),
                f.valueStatsCols(), f.externalPath(), f.firstRowId(), f.writeCols());
    }

    private static dev.streamhouse.storage.stats.SimpleStats convert(SimpleStats s) {
        return new dev.streamhouse.storage.stats.SimpleStats(convert(s.minValues()), convert(s.maxValues()), s.nullCounts());
    }

    private static dev.streamhouse.storage.data.BinaryRow convert(BinaryRow r) {
        return new dev.streamhouse.storage.data.BinaryRow(r.arity(), r.bytes());
    }

    /** Resolves the storage classes to their frozen copies and refuses every class not listed. */
    private static final class FrozenClassesInputStream extends ObjectInputStream {
        FrozenClassesInputStream(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            Class<?> frozen = FROZEN.get(desc.getName());
            if (frozen != null) {
                return frozen;
            }
            if (JDK.contains(desc.getName())) {
                return super.resolveClass(desc);
            }
            throw new InvalidClassException(desc.getName(), "not a class of a version 1 data split");
        }

        @Override
        protected Class<?> resolveProxyClass(String[] interfaces) throws IOException {
            throw new InvalidClassException("proxy", "not a class of a version 1 data split");
        }
    }
}
