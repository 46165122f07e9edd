package dev.streamhouse.flink.catalog.system;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.streamhouse.storage.options.SecretOptions;
import dev.streamhouse.storage.schema.DataTypeJson;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code t$schemas}: one row per schema version, ascending by id. {@code fields}, {@code partition_keys},
 * {@code primary_keys} and {@code options} are compact JSON as in the schema file (options sorted by key).
 */
final class SchemasTable implements SystemTable {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final RowType ROW_TYPE = (RowType) ROW(
            FIELD("schema_id", BIGINT().notNull()),
            FIELD("fields", STRING().notNull()),
            FIELD("partition_keys", STRING().notNull()),
            FIELD("primary_keys", STRING().notNull()),
            FIELD("options", STRING().notNull()),
            FIELD("comment", STRING()),
            FIELD("update_time", TIMESTAMP(3).notNull())).notNull().getLogicalType();

    @Override
    public String name() {
        return "schemas";
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    public List<RowData> rows(FileStoreTable table, Map<String, String> dynamicOptions) throws IOException {
        SchemaManager schemas = table.schemaManager();
        List<RowData> out = new ArrayList<>();
        for (long id : schemas.listIds()) {
            TableSchema s = schemas.schema(id);
            out.add(GenericRowData.of(
                    s.id(),
                    StringData.fromString(fieldsJson(s)),
                    StringData.fromString(JSON.writeValueAsString(s.partitionKeys())),
                    StringData.fromString(JSON.writeValueAsString(s.primaryKeys())),
                    StringData.fromString(JSON.writeValueAsString(SecretOptions.redacted(s.options()))),
                    StringData.fromString(s.comment()),
                    MetadataStrings.localTime(s.timeMillis())));
        }
        return out;
    }

    private static String fieldsJson(TableSchema schema) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            DataTypeJson.writeFields(g, schema.fields());
        }
        return out.toString();
    }
}
