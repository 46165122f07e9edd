package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.schema.SchemaChange.AddColumn;
import dev.streamhouse.storage.schema.SchemaChange.DropColumn;
import dev.streamhouse.storage.schema.SchemaChange.Move;
import dev.streamhouse.storage.schema.SchemaChange.RemoveOption;
import dev.streamhouse.storage.schema.SchemaChange.RenameColumn;
import dev.streamhouse.storage.schema.SchemaChange.SetOption;
import dev.streamhouse.storage.schema.SchemaChange.UpdateColumnComment;
import dev.streamhouse.storage.schema.SchemaChange.UpdateColumnNullability;
import dev.streamhouse.storage.schema.SchemaChange.UpdateColumnPosition;
import dev.streamhouse.storage.schema.SchemaChange.UpdateColumnType;
import dev.streamhouse.storage.schema.SchemaChange.UpdateComment;
import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.flink.catalog.testutils.RecordingStorageEvolution;
import dev.streamhouse.flink.catalog.testutils.RecordingStorageEvolution.Call;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataTypes;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

/**
 * ALTER TABLE statements as Flink parses them, down to the changes the catalog hands the storage (a
 * recording {@link StorageEvolution} stands in until the storage can evolve schemas).
 */
class AlterTableITCase extends CatalogITCaseBase {
    private static final Identifier T = Identifier.of("default", "t");

    private final RecordingStorageEvolution evolution = new RecordingStorageEvolution();

    @BeforeEach
    void registerRecordingCatalog() {
        FlinkCatalog recording = new FlinkCatalog("rec",
                CatalogFactory.createCatalog(Options.of("warehouse", warehouseUri())), "default", Map.of(), evolution);
        tEnv.registerCatalog("rec", recording);
        tEnv.useCatalog("rec");
        sql("CREATE TABLE t (id INT NOT NULL, name STRING COMMENT 'who', price DECIMAL(10, 2), ts TIMESTAMP(3), "
                + "PRIMARY KEY (id) NOT ENFORCED)");
    }

    private List<SchemaChange> alter(String statement) {
        evolution.calls.clear();
        sql(statement);
        assertThat(evolution.calls).hasSize(1);
        Call call = evolution.calls.get(0);
        assertThat(call.operation()).isEqualTo("alter");
        assertThat(call.table()).isEqualTo(T);
        @SuppressWarnings("unchecked")
        List<SchemaChange> changes = (List<SchemaChange>) call.argument();
        return changes;
    }

    @Test
    void setAndResetOptionsAndTheTableComment() {
        assertThat(alter("ALTER TABLE t SET ('bucket' = '4', 'comment' = 'prices')"))
                .containsExactlyInAnyOrder(new SetOption("bucket", "4"), new UpdateComment("prices"));
        assertThat(alter("ALTER TABLE t RESET ('snapshot.num-retained.min')"))
                .containsExactly(new RemoveOption("snapshot.num-retained.min"));
    }

    @Test
    void addColumns() {
        assertThat(alter("ALTER TABLE t ADD (qty INT COMMENT 'how many' AFTER name, note STRING FIRST)"))
                .containsExactly(
                        new AddColumn("qty", DataTypes.INT(), "how many", Move.after("name")),
                        new AddColumn("note", DataTypes.STRING(), null, Move.first()));
        assertThat(alter("ALTER TABLE t ADD tags ARRAY<STRING>"))
                .containsExactly(new AddColumn("tags", DataTypes.ARRAY(DataTypes.STRING()), null, Move.last()));
    }

    @Test
    void dropAndRenameColumns() {
        assertThat(alter("ALTER TABLE t DROP (price, ts)"))
                .containsExactly(new DropColumn("price"), new DropColumn("ts"));
        assertThat(alter("ALTER TABLE t RENAME name TO customer"))
                .containsExactly(new RenameColumn("name", "customer"));
    }

    @Test
    void modifyTypeNullabilityCommentAndPosition() {
        assertThat(alter("ALTER TABLE t MODIFY price DECIMAL(12, 2)"))
                .containsExactly(new UpdateColumnType("price", DataTypes.DECIMAL(12, 2)));
        assertThat(alter("ALTER TABLE t MODIFY name STRING NOT NULL"))
                .as("Flink keeps the comment when MODIFY names none")
                .containsExactly(new UpdateColumnNullability("name", false));
        assertThat(alter("ALTER TABLE t MODIFY name STRING COMMENT 'customer name'"))
                .containsExactly(new UpdateColumnComment("name", "customer name"));
        assertThat(alter("ALTER TABLE t MODIFY ts TIMESTAMP(3) FIRST"))
                .containsExactly(new UpdateColumnPosition("ts", Move.first()));
    }

    @Test
    void refusedChangesNameWhatWasAsked() {
        assertThatThrownBy(() -> sql("ALTER TABLE t DROP PRIMARY KEY"))
                .hasStackTraceContaining("altering the primary key is not supported");
        assertThatThrownBy(() -> sql("ALTER TABLE t ADD m BIGINT METADATA FROM 'offset'"))
                .hasStackTraceContaining("cannot add metadata column 'm'");
        assertThatThrownBy(() -> sql("ALTER TABLE t SET ('merge-engine' = 'first-row')"))
                .hasStackTraceContaining("option 'merge-engine' cannot be set after the table is created");
        assertThatThrownBy(() -> sql("ALTER TABLE t SET ('partition' = 'name')"))
                .hasStackTraceContaining("option 'partition' cannot be set");
        assertThat(evolution.calls).isEmpty();
    }

    @Test
    void addingAComputedColumnStoresOnlyItsOptions() {
        assertThat(alter("ALTER TABLE t ADD doubled AS id * 2")).containsExactly(
                new SetOption("schema.4.data-type", "INT NOT NULL"),
                new SetOption("schema.4.expr", "`id` * 2"),
                new SetOption("schema.4.name", "doubled"));
    }

    @Test
    void renameGoesToTheStorage() {
        sql("ALTER TABLE t RENAME TO t2");
        assertThat(evolution.calls).containsExactly(new Call("rename", T, Identifier.of("default", "t2")));
    }

    @Test
    void renameChecksSourceAndTarget() {
        sql("CREATE TABLE other (x INT)");
        assertThatThrownBy(() -> sql("ALTER TABLE t RENAME TO other"))
                .hasStackTraceContaining("other");
        assertThatThrownBy(() -> sql("ALTER TABLE nope RENAME TO x"))
                .hasStackTraceContaining("nope");
        assertThat(evolution.calls).isEmpty();
    }

    @Test
    void systemTablesCannotBeAlteredDroppedOrRenamed() {
        assertThatThrownBy(() -> sql("ALTER TABLE `t$files` SET ('a' = 'b')"))
                .hasStackTraceContaining("Cannot alter system table `rec`.`default`.`t$files`: system tables are "
                        + "read-only");
        assertThatThrownBy(() -> sql("DROP TABLE `t$files`"))
                .hasStackTraceContaining("Cannot drop system table");
        assertThatThrownBy(() -> sql("ALTER TABLE `t$files` RENAME TO x"))
                .hasStackTraceContaining("Cannot rename system table");
        assertThat(evolution.calls).isEmpty();
    }

    @Test
    void alterTableChangesTheStoredSchemaAndTheStorageRefusesUnsafeChanges() {
        tEnv.useCatalog(CATALOG);
        sql("ALTER TABLE t ADD extra INT COMMENT 'added later'");
        sql("ALTER TABLE t MODIFY price DECIMAL(12, 2)");
        assertThat(rows("DESCRIBE t").stream().anyMatch(r -> r.contains("extra"))).isTrue();
        assertThat(warehouse.resolve("default.db/t/schema/schema-2")).exists();
        assertThatThrownBy(() -> sql("ALTER TABLE t MODIFY price INT"))
                .hasStackTraceContaining("Cannot change column 'price'");
    }
}
