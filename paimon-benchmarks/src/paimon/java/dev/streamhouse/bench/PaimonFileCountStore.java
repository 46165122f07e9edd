package dev.streamhouse.bench;

import org.apache.paimon.data.GenericRow;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;

import java.util.List;
import java.util.Map;

/**
 * The {@code scale-files} store over Apache Paimon 1.3.1's Java API, the same calls as streamhouse's.
 * Compiled against Paimon's jar in this module's Paimon-only source folder (src/paimon/java) and on
 * the classpath of Paimon's runs only.
 */
final class PaimonFileCountStore extends PaimonStreamingTable implements FileCountStore {
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
        commit.commit(identifier, write.prepareCommit(false, identifier));
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
        Predicate filter = PredicateBuilder.and(pb.equal(0, partition), pb.equal(1, id));
        return planned(table.newReadBuilder().withFilter(filter));
    }

    private static Planned planned(ReadBuilder builder) {
        List<Split> splits = builder.newScan().plan().splits();
        long files = 0;
        for (Split split : splits) {
            files += ((DataSplit) split).dataFiles().size();
        }
        return new Planned(splits.size(), files);
    }
}
