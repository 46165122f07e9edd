package dev.streamhouse.bench;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.types.DataTypes;

import java.util.List;
import java.util.Map;

/** {@link FileCountStore} over streamhouse's storage API. */
final class OursFileCountStore extends OursStreamingTable implements FileCountStore {
    @Override
    public void createTable(String database, String name, Map<String, String> options) throws Exception {
        create(database, name, Schema.newBuilder()
                .column("p", DataTypes.INT().notNull())
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.BIGINT())
                .partitionKeys("p")
                .primaryKey("p", "id")
                .options(options)
                .build());
    }

    @Override
    public void writeEveryPartition(int partitions, long id, long identifier) throws Exception {
        for (int p = 0; p < partitions; p++) {
            write.write(GenericRow.of(p, id, id));
        }
        commit.commit(identifier, write.prepareCommit(false));
    }

    @Override
    public Planned planAll() {
        return planned(table.newReadBuilder());
    }

    @Override
    public Planned planPartition(int partition) {
        return planned(table.newReadBuilder().withFilter(new PredicateBuilder(table.rowType()).equal(0, partition)));
    }

    @Override
    public Planned planKey(int partition, long id) {
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        Predicate filter = PredicateBuilder.and(List.of(pb.equal(0, partition), pb.equal(1, id)));
        return planned(table.newReadBuilder().withFilter(filter));
    }

    private static Planned planned(ReadBuilder builder) {
        List<DataSplit> splits = builder.newScan().plan().splits();
        long files = 0;
        for (DataSplit split : splits) {
            files += split.files().size();
        }
        return new Planned(splits.size(), files);
    }
}
