package dev.streamhouse.flink.catalog.system;

import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;

import dev.streamhouse.storage.options.SecretOptions;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** {@code t$options}: the options stored in the latest schema, sorted by key (defaults are not listed; values of credentials masked). */
final class OptionsTable implements SystemTable {
    private static final long serialVersionUID = 1L;

    private static final RowType ROW_TYPE = (RowType) ROW(
            FIELD("key", STRING().notNull()),
            FIELD("value", STRING().notNull())).notNull().getLogicalType();

    @Override
    public String name() {
        return "options";
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    public List<RowData> rows(FileStoreTable table, Map<String, String> dynamicOptions) throws IOException {
        TableSchema latest = table.schemaManager().latest().orElse(table.schema());
        List<RowData> out = new ArrayList<>();
        for (Map.Entry<String, String> e : SecretOptions.redacted(latest.options()).entrySet()) {
            out.add(GenericRowData.of(StringData.fromString(e.getKey()), StringData.fromString(e.getValue())));
        }
        return out;
    }
}
