package dev.streamhouse.bench;

import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.types.DataTypes;

import java.util.List;
import java.util.Map;

/**
 * The {@code scale-snapshots} store over Apache Paimon 1.3.1's Java API ({@code StreamTableWrite},
 * {@code StreamTableCommit}), the same calls as streamhouse's. Compiled against Paimon's jar in this
 * module's Paimon-only source folder (src/paimon/java) and on the classpath of Paimon's runs only.
 */
final class PaimonSnapshotStore extends PaimonStreamingTable implements SnapshotStore {
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
        prepared = write.prepareCommit(false, identifier);
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
        builder.newRead().createReader(builder.newScan().plan()).forEachRemaining(row -> {
            result[0]++;
            result[1] += row.getLong(1);
        });
        return result;
    }
}
