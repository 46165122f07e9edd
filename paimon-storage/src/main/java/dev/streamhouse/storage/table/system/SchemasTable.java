package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.SecretOptions;
import dev.streamhouse.storage.schema.DataTypeJson;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.io.StringWriter;
import java.util.Iterator;

/**
 * {@code t$schemas}: one row per schema version, ascending by id, with fields, keys and options as
 * JSON (credentials masked) and {@code update_time} in the JVM's time zone.
 */
final class SchemasTable extends MetadataTable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final RowType ROW_TYPE = columns(
            "schema_id", BIGINT().notNull(),
            "fields", STRING().notNull(),
            "partition_keys", STRING().notNull(),
            "primary_keys", STRING().notNull(),
            "options", STRING().notNull(),
            "comment", STRING(),
            "update_time", TIMESTAMP(3).notNull());

    SchemasTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return "schemas";
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    Iterator<InternalRow> rows() throws IOException {
        SchemaManager schemas = table.schemaManager();
        return LazyRows.of(schemas.listIds().iterator(), id -> toRow(schemas.schema(id)),
                "the schemas of table " + table.fullName());
    }

    private static InternalRow toRow(TableSchema s) throws IOException {
        return GenericRow.of(
                s.id(),
                BinaryString.fromString(fieldsJson(s)),
                BinaryString.fromString(JSON.writeValueAsString(s.partitionKeys())),
                BinaryString.fromString(JSON.writeValueAsString(s.primaryKeys())),
                BinaryString.fromString(JSON.writeValueAsString(SecretOptions.redacted(s.options()))),
                s.comment() == null ? null : BinaryString.fromString(s.comment()),
                MetadataStrings.localTime(s.timeMillis()));
    }

    private static String fieldsJson(TableSchema schema) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            DataTypeJson.writeFields(g, schema.fields());
        }
        return out.toString();
    }
}
