package dev.streamhouse.flink.catalog.testutils;

import dev.streamhouse.flink.catalog.StorageEvolution;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.catalog.Identifier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Records what the catalog asks the storage to do, for tests of ALTER TABLE, RENAME and DROP PARTITION. */
public final class RecordingStorageEvolution implements StorageEvolution {
    /** One call. */
    public record Call(String operation, Identifier table, Object argument) {}

    public final List<Call> calls = new ArrayList<>();

    @Override
    public void alterTable(Identifier table, List<SchemaChange> changes, boolean ignoreIfNotExists) {
        calls.add(new Call("alter", table, changes));
    }

    @Override
    public void renameTable(Identifier from, Identifier to, boolean ignoreIfNotExists) {
        calls.add(new Call("rename", from, to));
    }

    @Override
    public void dropPartitions(Identifier table, List<Map<String, String>> partitions) {
        calls.add(new Call("dropPartitions", table, partitions));
    }
}
