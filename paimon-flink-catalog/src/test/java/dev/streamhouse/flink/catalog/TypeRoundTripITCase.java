package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every storable type through {@code CREATE TABLE}: the schema file holds Paimon's type spellings and
 * field ids, and Flink reads back exactly the declared types.
 */
class TypeRoundTripITCase extends CatalogITCaseBase {
    private static final List<String> COLUMNS = List.of(
            "c_boolean BOOLEAN",
            "c_tinyint TINYINT",
            "c_smallint SMALLINT",
            "c_int INT NOT NULL",
            "c_bigint BIGINT",
            "c_float FLOAT",
            "c_double DOUBLE",
            "c_decimal DECIMAL(38, 18)",
            "c_char CHAR(5)",
            "c_varchar VARCHAR(100)",
            "c_string STRING",
            "c_binary BINARY(8)",
            "c_varbinary VARBINARY(16)",
            "c_bytes BYTES",
            "c_date DATE",
            // Flink's SQL parser turns TIME(p) into TIME(0); TIME(3) is tested through the Table API below
            "c_time TIME",
            "c_timestamp TIMESTAMP(6)",
            "c_timestamp_ltz TIMESTAMP_LTZ(3)",
            "c_array ARRAY<INT NOT NULL>",
            "c_map MAP<STRING NOT NULL, BIGINT>",
            "c_multiset MULTISET<STRING>",
            // Flink's SQL parser drops NOT NULL and comments of nested fields; see the Table API test below
            "c_row ROW<`x` INT, `nested` ROW<`a` STRING>>");

    private static final String EXPECTED_FIELDS = "["
            + "{'id':0,'name':'c_boolean','type':'BOOLEAN'},"
            + "{'id':1,'name':'c_tinyint','type':'TINYINT'},"
            + "{'id':2,'name':'c_smallint','type':'SMALLINT'},"
            + "{'id':3,'name':'c_int','type':'INT NOT NULL'},"
            + "{'id':4,'name':'c_bigint','type':'BIGINT'},"
            + "{'id':5,'name':'c_float','type':'FLOAT'},"
            + "{'id':6,'name':'c_double','type':'DOUBLE'},"
            + "{'id':7,'name':'c_decimal','type':'DECIMAL(38, 18)'},"
            + "{'id':8,'name':'c_char','type':'CHAR(5)'},"
            + "{'id':9,'name':'c_varchar','type':'VARCHAR(100)'},"
            + "{'id':10,'name':'c_string','type':'STRING'},"
            + "{'id':11,'name':'c_binary','type':'BINARY(8)'},"
            + "{'id':12,'name':'c_varbinary','type':'VARBINARY(16)'},"
            + "{'id':13,'name':'c_bytes','type':'BYTES'},"
            + "{'id':14,'name':'c_date','type':'DATE'},"
            + "{'id':15,'name':'c_time','type':'TIME(0)'},"
            + "{'id':16,'name':'c_timestamp','type':'TIMESTAMP(6)'},"
            + "{'id':17,'name':'c_timestamp_ltz','type':'TIMESTAMP(3) WITH LOCAL TIME ZONE'},"
            + "{'id':18,'name':'c_array','type':{'type':'ARRAY','element':'INT NOT NULL'}},"
            + "{'id':19,'name':'c_map','type':{'type':'MAP','key':'STRING NOT NULL','value':'BIGINT'}},"
            + "{'id':20,'name':'c_multiset','type':{'type':'MULTISET','element':'STRING'}},"
            + "{'id':21,'name':'c_row','type':{'type':'ROW','fields':["
            + "{'id':22,'name':'x','type':'INT'},"
            + "{'id':24,'name':'nested','type':{'type':'ROW','fields':[{'id':23,'name':'a','type':'STRING'}]}}]}}"
            + "]";

    @Test
    void everyTypeIsStoredInPaimonSpellingAndReadBackUnchanged() throws Exception {
        sql("CREATE TABLE all_types (" + String.join(", ", COLUMNS) + ")");

        ObjectMapper json = new ObjectMapper();
        JsonNode schemaFile = json.readTree(Files.readString(
                warehouse.resolve("default.db").resolve("all_types").resolve("schema").resolve("schema-0")));
        assertThat(schemaFile.get("fields")).isEqualTo(json.readTree(EXPECTED_FIELDS.replace('\'', '"')));
        assertThat(schemaFile.get("highestFieldId").asInt()).isEqualTo(24);

        ResolvedSchema readBack = tEnv.from("all_types").getResolvedSchema();
        List<String> declared = readBack.getColumns().stream()
                .map(c -> "`" + c.getName() + "` " + c.getDataType().getLogicalType().asSerializableString())
                .collect(Collectors.toList());
        assertThat(declared).containsExactly(
                "`c_boolean` BOOLEAN",
                "`c_tinyint` TINYINT",
                "`c_smallint` SMALLINT",
                "`c_int` INT NOT NULL",
                "`c_bigint` BIGINT",
                "`c_float` FLOAT",
                "`c_double` DOUBLE",
                "`c_decimal` DECIMAL(38, 18)",
                "`c_char` CHAR(5)",
                "`c_varchar` VARCHAR(100)",
                "`c_string` VARCHAR(2147483647)",
                "`c_binary` BINARY(8)",
                "`c_varbinary` VARBINARY(16)",
                "`c_bytes` VARBINARY(2147483647)",
                "`c_date` DATE",
                "`c_time` TIME(0)",
                "`c_timestamp` TIMESTAMP(6)",
                "`c_timestamp_ltz` TIMESTAMP(3) WITH LOCAL TIME ZONE",
                "`c_array` ARRAY<INT NOT NULL>",
                "`c_map` MAP<VARCHAR(2147483647) NOT NULL, BIGINT>",
                "`c_multiset` MULTISET<VARCHAR(2147483647)>",
                "`c_row` ROW<`x` INT, `nested` ROW<`a` VARCHAR(2147483647)>>");
        assertThat(readBack.getColumns()).allMatch(Column::isPhysical);
    }

    @Test
    void nestedNullabilityCommentsAndTimePrecisionSurviveThroughTheTableApi() throws Exception {
        org.apache.flink.table.types.DataType row = DataTypes.ROW(
                DataTypes.FIELD("x", DataTypes.INT().notNull(), "the x"),
                DataTypes.FIELD("y", DataTypes.TIME(3)));
        tEnv.createTable("nested", TableDescriptor.forConnector("paimon")
                .schema(Schema.newBuilder().column("r", row.notNull()).withComment("a row").build())
                .build());

        ObjectMapper json = new ObjectMapper();
        JsonNode fields = json.readTree(Files.readString(
                warehouse.resolve("default.db").resolve("nested").resolve("schema").resolve("schema-0"))).get("fields");
        assertThat(fields).isEqualTo(json.readTree(("[{'id':0,'name':'r','type':{'type':'ROW NOT NULL','fields':["
                + "{'id':1,'name':'x','type':'INT NOT NULL','description':'the x'},"
                + "{'id':2,'name':'y','type':'TIME(3)'}]},'description':'a row'}]").replace('\'', '"')));
        Column column = tEnv.from("nested").getResolvedSchema().getColumns().get(0);
        assertThat(column.getDataType().getLogicalType()).isEqualTo(row.notNull().getLogicalType());
        assertThat(column.getComment()).contains("a row");
    }

}
