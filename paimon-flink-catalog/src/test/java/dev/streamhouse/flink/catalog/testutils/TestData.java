package dev.streamhouse.flink.catalog.testutils;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;

/** Writes test rows through the storage Java API (until SQL INSERT is wired). */
public final class TestData {
    private TestData() {}

    /** Writes the rows and commits them as one snapshot. */
    public static void commit(Table table, InternalRow... rows) throws Exception {
        try (TableWrite write = table.newWrite(); BatchTableCommit commit = table.newBatchCommit()) {
            for (InternalRow row : rows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
    }
}
