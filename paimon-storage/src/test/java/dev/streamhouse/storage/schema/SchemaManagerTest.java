package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaManagerTest {
    @TempDir
    java.nio.file.Path tmp;

    private final LocalFileIO fileIO = LocalFileIO.INSTANCE;
    private Path tableRoot;
    private SchemaManager manager;

    @BeforeEach
    void setUp() {
        tableRoot = new Path(tmp.toString() + "/default.db/t");
        manager = new SchemaManager(fileIO, tableRoot, () -> 1795969395898L);
    }

    private static Schema.Builder pkDemo() {
        return Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .column("price", DataTypes.DECIMAL(10, 2))
                .column("ts", DataTypes.TIMESTAMP(3))
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2")
                .comment("pk demo");
    }

    @Test
    void createTableWritesPaimonsExampleByteForByte() throws Exception {
        TableSchema created = manager.createTable(pkDemo().build());

        assertThat(fileIO.readUtf8(new Path(tableRoot, "schema/schema-0"))).isEqualTo(SchemaSerializerTest.GOLDEN);
        assertThat(created).isEqualTo(SchemaSerializerTest.goldenSchema());
        assertThat(manager.latest()).contains(created);
        assertThat(manager.schema(0)).isEqualTo(created);
        assertThat(manager.listIds()).containsExactly(0L);
    }

    @Test
    void keyOptionsAreMovedIntoTheListsAndOnlyUserOptionsAreStored() throws Exception {
        TableSchema created = manager.createTable(Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .option("primary-key", "dt, id")
                .option("partition", "dt")
                .option("bucket", "4")
                .build());
        assertThat(created.primaryKeys()).containsExactly("dt", "id");
        assertThat(created.partitionKeys()).containsExactly("dt");
        assertThat(created.options()).containsOnly(Map.entry("bucket", "4"));
        assertThat(created.fields()).extracting(DataField::type)
                .containsExactly(DataTypes.STRING().notNull(), DataTypes.INT().notNull());
    }

    @Test
    void appendTableWithoutOptionsHasEmptyOptionsAndNestedIds() throws Exception {
        TableSchema created = manager.createTable(Schema.newBuilder()
                .column("a", DataTypes.INT())
                .column("b", DataTypes.STRING())
                .column("c", DataTypes.ARRAY(DataTypes.INT()))
                .column("d", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
                .column("r", DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.INT()), DataTypes.FIELD(0, "y", DataTypes.STRING())))
                .column("z", DataTypes.BIGINT())
                .build());
        RowType r = (RowType) created.fields().get(4).type();
        assertThat(created.fields().get(4).id()).isEqualTo(4);
        assertThat(r.fields()).extracting(DataField::id).containsExactly(5, 6);
        assertThat(created.fields().get(5).id()).isEqualTo(7);
        assertThat(created.highestFieldId()).isEqualTo(7);
        assertThat(created.version()).isEqualTo(3);
        assertThat(fileIO.readUtf8(manager.schemaPath(0))).contains("\"options\" : { },");
    }

    @Test
    void rejectsInvalidSchemasNamingTheColumnOrOption() {
        assertInvalid(Schema.newBuilder().build(), "no columns");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).column("a", DataTypes.STRING()).build(), "'a'");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).partitionKeys("p").build(), "Partition key column 'p' does not exist");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).primaryKey("k").build(), "Primary key column 'k' does not exist");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).primaryKey("a", "a").build(), "'a' is listed more than once");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).column("b", DataTypes.INT())
                .partitionKeys("a").primaryKey("a").build(), "consists only of partition keys");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).column("b", DataTypes.INT())
                .partitionKeys("a").primaryKey("b").option("bucket", "2").build(),
                "does not include all partition keys [a] (a cross-partition upsert), which needs 'bucket' = -1");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).column("b", DataTypes.INT())
                .partitionKeys("a").primaryKey("b").build(),
                "does not include all partition keys [a]: such a cross-partition upsert table is not supported yet");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.ARRAY(DataTypes.INT())).primaryKey("a").build(), "'a' has type ARRAY<INT>");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).primaryKey("a").option("primary-key", "a").build(), "option 'primary-key'");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).option("bucket", "x").build(), "option 'bucket' must be an integer");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).option("bucket", "0").build(), "option 'bucket'");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).option("bucket", "3").build(), "needs option 'bucket-key'");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).option("bucket-key", "a").build(), "'bucket' = -1");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).option("bucket", "2").option("bucket-key", "q").build(),
                "Bucket key column 'q' does not exist");
        assertInvalid(Schema.newBuilder().column("p", DataTypes.INT()).column("a", DataTypes.INT()).partitionKeys("p")
                .option("bucket", "2").option("bucket-key", "p").build(), "bucket key column 'p' is a partition key");
        assertInvalid(Schema.newBuilder().column("a", DataTypes.INT()).column("b", DataTypes.INT()).primaryKey("a")
                .option("bucket", "2").option("bucket-key", "b").build(), "bucket key column 'b' is not part of the primary key");
        assertInvalid(Schema.newBuilder().column("_KEY_a", DataTypes.INT()).build(), "'_KEY_a' is reserved");
    }

    private void assertInvalid(Schema schema, String expectedMessagePart) {
        assertThatThrownBy(() -> manager.createTable(schema))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cannot create table " + tableRoot + ": ")
                .hasMessageContaining(expectedMessagePart);
        assertThat(fileIO.exists(manager.schemaPath(0))).isFalse();
    }

    @Test
    void acceptsValidBucketKeyConfigurations() throws Exception {
        TableSchema append = manager.createTable(Schema.newBuilder().column("p", DataTypes.INT()).column("a", DataTypes.INT())
                .partitionKeys("p").option("bucket", "3").option("bucket-key", "a").build());
        assertThat(append.bucketKeys()).containsExactly("a");
    }

    @Test
    void creatingAnExistingTableFailsWithATypedException() throws Exception {
        manager.createTable(pkDemo().build());
        assertThatThrownBy(() -> manager.createTable(pkDemo().build()))
                .isInstanceOf(SchemaAlreadyExistsException.class)
                .hasMessageContaining(tableRoot.toString())
                .hasMessageContaining("schema-0");
        assertThat(fileIO.readUtf8(manager.schemaPath(0))).isEqualTo(SchemaSerializerTest.GOLDEN);
    }

    @Test
    void creatingWhenOnlyALaterSchemaExistsAlsoFails() throws Exception {
        fileIO.overwrite(manager.schemaPath(3), SchemaSerializerTest.GOLDEN.replace("\"id\" : 0,\n  \"fields\"", "\"id\" : 3,\n  \"fields\"")
                .getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> manager.createTable(pkDemo().build())).isInstanceOf(SchemaAlreadyExistsException.class);
    }

    @Test
    void commitNewVersionIsCreateIfAbsent() throws Exception {
        TableSchema v0 = manager.createTable(pkDemo().build());
        TableSchema v1 = new TableSchema(3, 1, v0.fields(), v0.highestFieldId(), v0.partitionKeys(), v0.primaryKeys(),
                Map.of("bucket", "2", "k", "v"), null, 7L);
        assertThat(manager.commitNewVersion(v1)).isTrue();
        assertThat(manager.commitNewVersion(v1)).isFalse();
        assertThat(manager.latest()).contains(v1);
        assertThat(manager.listIds()).containsExactly(0L, 1L);

        TableSchema gap = new TableSchema(3, 5, v0.fields(), 4, List.of(), List.of(), Map.of(), null, 0L);
        assertThatThrownBy(() -> manager.commitNewVersion(gap)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema-4");
    }

    @Test
    void listIgnoresTempAndForeignFiles() throws Exception {
        manager.createTable(pkDemo().build());
        fileIO.overwrite(new Path(manager.schemaDirectory(), ".schema-1.abc.tmp"), new byte[] {1});
        fileIO.overwrite(new Path(manager.schemaDirectory(), "schema-x"), new byte[] {1});
        fileIO.overwrite(new Path(manager.schemaDirectory(), "notes"), new byte[] {1});
        assertThat(manager.listIds()).containsExactly(0L);
    }

    @Test
    void emptyTableHasNoSchema() throws Exception {
        assertThat(manager.latest()).isEmpty();
        assertThat(manager.listIds()).isEmpty();
        assertThatThrownBy(() -> manager.schema(0)).isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining(manager.schemaPath(0).toString()).hasMessageContaining("of table " + tableRoot);
    }

    @Test
    void corruptSchemaFileNamesFileAndTableAndIsKept() throws Exception {
        byte[] truncated = SchemaSerializerTest.GOLDEN.substring(0, 120).getBytes(StandardCharsets.UTF_8);
        fileIO.overwrite(manager.schemaPath(0), truncated);
        assertThatThrownBy(() -> manager.latest())
                .isInstanceOf(CorruptSchemaException.class)
                .hasMessageContaining("schema file " + manager.schemaPath(0))
                .hasMessageContaining("of table " + tableRoot)
                .satisfies(e -> assertThat(((CorruptSchemaException) e).file()).isEqualTo(manager.schemaPath(0)));
        assertThat(fileIO.readAllBytes(manager.schemaPath(0))).isEqualTo(truncated);
    }

    @Test
    void schemaWhoseIdDoesNotMatchItsFileIsCorrupt() throws Exception {
        fileIO.overwrite(manager.schemaPath(1), SchemaSerializerTest.GOLDEN.getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> manager.schema(1)).isInstanceOf(CorruptSchemaException.class)
                .hasMessageContaining("holds schema id 0");
    }
}
