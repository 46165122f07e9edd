package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.STRING;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.SecretOptions;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * {@code t$options}: the options stored in the latest schema, sorted by key (defaults are not listed;
 * values of credentials masked).
 */
final class OptionsTable extends MetadataTable {
    private static final RowType ROW_TYPE = columns("key", STRING().notNull(), "value", STRING().notNull());

    OptionsTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return "options";
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    Iterator<InternalRow> rows() throws IOException {
        TableSchema latest = table.schemaManager().latest().orElse(table.schema());
        Iterator<Map.Entry<String, String>> options = SecretOptions.redacted(latest.options()).entrySet().iterator();
        return LazyRows.of(options, e -> GenericRow.of(BinaryString.fromString(e.getKey()),
                BinaryString.fromString(e.getValue())), "the options of table " + table.fullName());
    }
}
