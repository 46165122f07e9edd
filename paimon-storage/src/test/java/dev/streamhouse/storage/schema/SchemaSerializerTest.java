package dev.streamhouse.storage.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaSerializerTest {

    /** docs/format.md §3.4, written by Paimon 1.3.1. */
    static final String GOLDEN = "{\n"
            + "  \"version\" : 3,\n"
            + "  \"id\" : 0,\n"
            + "  \"fields\" : [ {\n"
            + "    \"id\" : 0,\n"
            + "    \"name\" : \"dt\",\n"
            + "    \"type\" : \"STRING NOT NULL\"\n"
            + "  }, {\n"
            + "    \"id\" : 1,\n"
            + "    \"name\" : \"id\",\n"
            + "    \"type\" : \"INT NOT NULL\"\n"
            + "  }, {\n"
            + "    \"id\" : 2,\n"
            + "    \"name\" : \"name\",\n"
            + "    \"type\" : \"STRING\"\n"
            + "  }, {\n"
            + "    \"id\" : 3,\n"
            + "    \"name\" : \"price\",\n"
            + "    \"type\" : \"DECIMAL(10, 2)\"\n"
            + "  }, {\n"
            + "    \"id\" : 4,\n"
            + "    \"name\" : \"ts\",\n"
            + "    \"type\" : \"TIMESTAMP(3)\"\n"
            + "  } ],\n"
            + "  \"highestFieldId\" : 4,\n"
            + "  \"partitionKeys\" : [ \"dt\" ],\n"
            + "  \"primaryKeys\" : [ \"dt\", \"id\" ],\n"
            + "  \"options\" : {\n"
            + "    \"bucket\" : \"2\"\n"
            + "  },\n"
            + "  \"comment\" : \"pk demo\",\n"
            + "  \"timeMillis\" : 1795969395898\n"
            + "}";

    static TableSchema goldenSchema() {
        return new TableSchema(3, 0,
                List.of(new DataField(0, "dt", DataTypes.STRING().notNull()),
                        new DataField(1, "id", DataTypes.INT().notNull()),
                        new DataField(2, "name", DataTypes.STRING()),
                        new DataField(3, "price", DataTypes.DECIMAL(10, 2)),
                        new DataField(4, "ts", DataTypes.TIMESTAMP(3))),
                4, List.of("dt"), List.of("dt", "id"), Map.of("bucket", "2"), "pk demo", 1795969395898L);
    }

    @Test
    void writesPaimonsExampleByteForByte() {
        assertThat(SchemaSerializer.toJson(goldenSchema())).isEqualTo(GOLDEN);
    }

    @Test
    void readsPaimonsExample() {
        assertThat(SchemaSerializer.fromJson(GOLDEN)).isEqualTo(goldenSchema());
    }

    @Test
    void emptyOptionsAndListsAndNoComment() {
        TableSchema schema = new TableSchema(3, 1, List.of(new DataField(0, "a", DataTypes.INT())), 0, List.of(),
                List.of(), Map.of(), null, 5L);
        String json = SchemaSerializer.toJson(schema);
        assertThat(json).isEqualTo("{\n  \"version\" : 3,\n  \"id\" : 1,\n  \"fields\" : [ {\n    \"id\" : 0,\n"
                + "    \"name\" : \"a\",\n    \"type\" : \"INT\"\n  } ],\n  \"highestFieldId\" : 0,\n"
                + "  \"partitionKeys\" : [ ],\n  \"primaryKeys\" : [ ],\n  \"options\" : { },\n  \"timeMillis\" : 5\n}");
        assertThat(SchemaSerializer.fromJson(json)).isEqualTo(schema);
    }

    @Test
    void writesCompositeTypesInPaimonsSpelling() throws Exception {
        assertThat(compact(new DataField(2, "arr", DataTypes.ARRAY(DataTypes.INT()))))
                .isEqualTo("{\"id\":2,\"name\":\"arr\",\"type\":{\"type\":\"ARRAY\",\"element\":\"INT\"}}");
        assertThat(compact(new DataField(3, "m", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))))
                .isEqualTo("{\"id\":3,\"name\":\"m\",\"type\":{\"type\":\"MAP\",\"key\":\"STRING\",\"value\":\"BIGINT\"}}");
        RowType row = DataTypes.ROW(DataTypes.FIELD(5, "x", DataTypes.INT()), DataTypes.FIELD(6, "y", DataTypes.STRING().notNull()));
        assertThat(compact(new DataField(4, "r", row)))
                .isEqualTo("{\"id\":4,\"name\":\"r\",\"type\":{\"type\":\"ROW\",\"fields\":[{\"id\":5,\"name\":\"x\",\"type\":\"INT\"},"
                        + "{\"id\":6,\"name\":\"y\",\"type\":\"STRING NOT NULL\"}]}}");
        assertThat(compact(new DataField(7, "ms", DataTypes.MULTISET(DataTypes.INT()).notNull(), "a comment", "x")))
                .isEqualTo("{\"id\":7,\"name\":\"ms\",\"type\":{\"type\":\"MULTISET NOT NULL\",\"element\":\"INT\"},"
                        + "\"description\":\"a comment\",\"defaultValue\":\"x\"}");
    }

    private static String compact(DataField field) throws Exception {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            DataTypeJson.writeField(g, field);
        }
        return out.toString();
    }

    @Test
    void nestedTypesRoundTrip() {
        RowType inner = DataTypes.ROW(DataTypes.FIELD(6, "x", DataTypes.TIMESTAMP_LTZ(3)),
                DataTypes.FIELD(7, "y", DataTypes.ARRAY(DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BYTES()))));
        TableSchema schema = new TableSchema(3, 2,
                List.of(new DataField(0, "a", DataTypes.DECIMAL(38, 10), "desc", null),
                        new DataField(1, "b", DataTypes.CHAR(3)),
                        new DataField(2, "c", DataTypes.VARCHAR(20).notNull()),
                        new DataField(3, "d", DataTypes.MULTISET(DataTypes.INT()).notNull()),
                        new DataField(5, "r", inner.notNull())),
                9, List.of(), List.of(), Map.of("k1", "v1", "a.b", "c"), "comment \"quoted\"", 42L);
        assertThat(SchemaSerializer.fromJson(SchemaSerializer.toJson(schema))).isEqualTo(schema);
    }

    @Test
    void readsCompositeTypesLeniently() {
        String json = "{\"id\":0,\"version\":3,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":{\"type\":\"array not null\","
                + "\"element\":\"integer\"}}],\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{},"
                + "\"unknown\":{\"x\":1},\"timeMillis\":1}";
        TableSchema schema = SchemaSerializer.fromJson(json);
        assertThat(schema.fields().get(0).type()).isEqualTo(DataTypes.ARRAY(DataTypes.INT()).notNull());
    }

    @Test
    void appliesReaderCompatibilityRulesOfOldVersions() {
        String noVersion = "{\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],\"highestFieldId\":0,"
                + "\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}";
        TableSchema v1 = SchemaSerializer.fromJson(noVersion);
        assertThat(v1.version()).isEqualTo(1);
        assertThat(v1.options()).containsEntry("bucket", "1").containsEntry("file.format", "orc");
        assertThat(v1.timeMillis()).isZero();
        assertThat(v1.comment()).isNull();

        String v2 = noVersion.replace("{\"id\":0,", "{\"version\":2,\"id\":0,");
        assertThat(SchemaSerializer.fromJson(v2).options()).containsOnly(Map.entry("file.format", "orc"));

        String v1WithBucket = noVersion.replace("\"options\":{}", "\"options\":{\"bucket\":\"4\",\"file.format\":\"parquet\"}");
        assertThat(SchemaSerializer.fromJson(v1WithBucket).options())
                .containsOnly(Map.entry("bucket", "4"), Map.entry("file.format", "parquet"));

        String v3 = noVersion.replace("{\"id\":0,", "{\"version\":3,\"id\":0,");
        assertThat(SchemaSerializer.fromJson(v3).options()).isEmpty();
    }

    @Test
    void derivesHighestFieldIdWhenMissing() {
        String json = "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"},{\"id\":1,\"name\":\"r\","
                + "\"type\":{\"type\":\"ROW\",\"fields\":[{\"id\":2,\"name\":\"x\",\"type\":\"INT\"}]}}]}";
        assertThat(SchemaSerializer.fromJson(json).highestFieldId()).isEqualTo(2);
    }

    @Test
    void rejectsMalformedDocuments() {
        assertThatThrownBy(() -> SchemaSerializer.fromJson(GOLDEN.substring(0, 100)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> SchemaSerializer.fromJson("[1]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected a JSON object");
        assertThatThrownBy(() -> SchemaSerializer.fromJson("{\"version\":3,\"fields\":[]}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'id'");
        assertThatThrownBy(() -> SchemaSerializer.fromJson("{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"WHAT\"}]}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown type 'WHAT'");
        assertThatThrownBy(() -> SchemaSerializer.fromJson("{\"version\":3,\"id\":0}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fields");
    }
}
