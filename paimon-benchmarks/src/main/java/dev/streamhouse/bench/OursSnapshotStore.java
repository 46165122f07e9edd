package dev.streamhouse.bench;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.types.DataTypes;

import java.util.List;
import java.util.Map;

/** {@link SnapshotStore} over streamhouse's storage API ({@code TableWrite}, {@code TableCommit}). */
final class OursSnapshotStore extends OursStreamingTable implements SnapshotStore {
    private List<CommitMessage> prepared = List.of();

    @Override
    public void createTable(String database, String name, Map<String, String> options) throws Exception {
        create(database, name, Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.BIGINT())
                .primaryKey("id")
                .options(options)
                .build());
    }

    @Override
    public void write(long firstId, int count, long value, long identifier) throws Exception {
        for (long id = firstId; id < firstId + count; id++) {
            write.write(GenericRow.of(id, value));
        }
        prepared = write.prepareCommit(false);
    }

    @Override
    public void commit(long identifier) {
        commit.commit(identifier, prepared);
        prepared = List.of();
    }

    @Override
    public long latestSnapshotId() {
        return table.latestSnapshot().map(s -> s.id()).orElse(0L);
    }

    @Override
    public int planBatch() {
        return table.newReadBuilder().newScan().plan().splits().size();
    }

    @Override
    public int planStreaming() {
        StreamTableScan scan = table.newReadBuilder().newStreamScan();
        scan.restore(latestSnapshotId());
        return scan.plan().splits().size();
    }

    @Override
    public long[] countAndSum() throws Exception {
        ReadBuilder builder = table.newReadBuilder();
        long[] result = new long[2];
        builder.newRead().createReader(builder.newScan().plan().splits()).forEachRemaining(row -> {
            result[0]++;
            result[1] += row.longAt(1);
        });
        return result;
    }
}
