package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * {@code t$consumers}: the table's named consumers (docs/format.md §11.3) sorted by id, with the next snapshot
 * each reads: Apache Paimon's columns {@code consumer_id STRING NOT NULL, next_snapshot_id BIGINT NOT
 * NULL}. Always the current consumer files, whatever snapshot the data table is at (as in Paimon). An
 * unreadable consumer file fails the read naming the file.
 */
final class ConsumersTable extends MetadataTable {
    /** The name after {@code $}. */
    static final String NAME = "consumers";

    private static final RowType ROW_TYPE =
            columns("consumer_id", STRING().notNull(), "next_snapshot_id", BIGINT().notNull());

    ConsumersTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    Iterator<InternalRow> rows() throws IOException {
        Map<String, Long> consumers = new ConsumerManager(table.fileIO(), table.location()).list();
        return LazyRows.of(consumers.entrySet().iterator(),
                e -> GenericRow.of(BinaryString.fromString(e.getKey()), e.getValue()),
                "the consumers of table " + table.fullName());
    }
}
