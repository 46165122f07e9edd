package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;

/**
 * Run in a small-heap JVM by {@link PrimaryKeyWriteSmallHeapITCase}: writes many times the write
 * buffer into a primary-key table with spilling on, commits, reads the key count back and prints it.
 * Arguments: table directory, write-buffer-size, number of rows.
 */
public final class PrimaryKeyWriteSmallHeapMain {
    public static void main(String[] args) throws Exception {
        Path root = new Path(args[0]);
        String bufferSize = args[1];
        int rows = Integer.parseInt(args[2]);
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, root, Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("payload", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("write-buffer-size", bufferSize)
                .option("write-buffer-spillable", "true")
                .option("target-file-size", "8 mb")
                .option("file.block-size", "8 mb")
                .build());
        String filler = "x".repeat(80);
        TableCommit commit = table.newStreamCommit("small-heap");
        try (TableWrite write = table.newWrite()) {
            for (int i = 0; i < rows; i++) {
                // Keys repeat (each key written twice), so merging across spilled runs matters.
                long id = (i * 7919L) % (rows / 2);
                write.write(GenericRow.of(id, BinaryString.fromString(filler + i)));
            }
            commit.commit(1, write.prepareCommit());
        }
        long[] count = {0};
        var rb = table.newReadBuilder().withProjection(new int[] {0});
        rb.newRead().createReader(rb.newScan().plan().splits()).forEachRemaining(r -> count[0]++);
        Runtime rt = Runtime.getRuntime();
        System.out.println("RESULT keys=" + count[0] + " maxHeapMb=" + rt.maxMemory() / (1 << 20));
    }
}
