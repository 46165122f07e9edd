package dev.streamhouse.flink.catalog.alter;

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
import dev.streamhouse.storage.types.DataTypes;

import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.TableDistribution;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

class TableChangeTranslatorTest {
    private static final org.apache.flink.table.types.DataType INT = org.apache.flink.table.api.DataTypes.INT();
    private static final org.apache.flink.table.types.DataType BIGINT = org.apache.flink.table.api.DataTypes.BIGINT();

    private final TableChangeTranslator translator = new TableChangeTranslator("`c`.`db`.`t`");

    private List<SchemaChange> translate(TableChange... changes) {
        return translator.translate(List.of(changes));
    }

    @Test
    void optionsAndTableComment() {
        assertThat(translate(
                TableChange.set("bucket", "4"),
                TableChange.reset("snapshot.num-retained.min"),
                TableChange.set("comment", "orders of 2024"),
                TableChange.reset("comment")))
                .containsExactly(
                        new SetOption("bucket", "4"),
                        new RemoveOption("snapshot.num-retained.min"),
                        new UpdateComment("orders of 2024"),
                        new UpdateComment(null));
    }

    @Test
    void addColumnsWithCommentAndPosition() {
        Column plain = Column.physical("a", INT);
        Column first = Column.physical("b", BIGINT.notNull()).withComment("the b");
        Column after = Column.physical("c", org.apache.flink.table.api.DataTypes.STRING());

        assertThat(translate(
                TableChange.add(plain),
                TableChange.add(first, TableChange.ColumnPosition.first()),
                TableChange.add(after, TableChange.ColumnPosition.after("a"))))
                .containsExactly(
                        new AddColumn("a", DataTypes.INT(), null, Move.last()),
                        new AddColumn("b", DataTypes.BIGINT().notNull(), "the b", Move.first()),
                        new AddColumn("c", DataTypes.STRING(), null, Move.after("a")));
    }

    @Test
    void addNestedColumnCarriesPlaceholderIds() {
        Column nested = Column.physical("r", org.apache.flink.table.api.DataTypes.ROW(
                org.apache.flink.table.api.DataTypes.FIELD("x", INT)));
        AddColumn add = (AddColumn) translate(TableChange.add(nested)).get(0);
        assertThat(add.type()).isEqualTo(DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.INT())));
    }

    @Test
    void dropRenameCommentAndPositionOfColumns() {
        Column a = Column.physical("a", INT);
        assertThat(translate(
                TableChange.dropColumn("x"),
                TableChange.modifyColumnName(a, "a2"),
                TableChange.modifyColumnComment(a, "new comment"),
                TableChange.modifyColumnPosition(a, TableChange.ColumnPosition.first()),
                TableChange.modifyColumnPosition(a, TableChange.ColumnPosition.after("b"))))
                .containsExactly(
                        new DropColumn("x"),
                        new RenameColumn("a", "a2"),
                        new UpdateColumnComment("a", "new comment"),
                        new UpdateColumnPosition("a", Move.first()),
                        new UpdateColumnPosition("a", Move.after("b")));
    }

    @Test
    void typeChangeKeepsNullabilityAndNullabilityChangeIsSeparate() {
        Column nullableInt = Column.physical("a", INT);
        Column notNullInt = Column.physical("b", INT.notNull());

        assertThat(translate(TableChange.modifyPhysicalColumnType(nullableInt, BIGINT)))
                .containsExactly(new UpdateColumnType("a", DataTypes.BIGINT()));
        assertThat(translate(TableChange.modifyPhysicalColumnType(nullableInt, BIGINT.notNull())))
                .containsExactly(new UpdateColumnType("a", DataTypes.BIGINT()), new UpdateColumnNullability("a", false));
        assertThat(translate(TableChange.modifyPhysicalColumnType(notNullInt, INT)))
                .containsExactly(new UpdateColumnNullability("b", true));
        assertThat(translate(TableChange.modifyPhysicalColumnType(notNullInt, BIGINT)))
                .containsExactly(new UpdateColumnType("b", DataTypes.BIGINT().notNull()),
                        new UpdateColumnNullability("b", true));
        assertThat(translate(TableChange.modifyPhysicalColumnType(nullableInt, INT))).isEmpty();
    }

    @Test
    void immutableOptionsAreRefusedByName() {
        for (String key : List.of("primary-key", "partition", "bucket-key", "merge-engine", "sequence.field",
                "partial-update.remove-record-on-delete")) {
            assertThatThrownBy(() -> translate(TableChange.set(key, "x")))
                    .isInstanceOf(CatalogException.class)
                    .hasMessageContaining("Cannot alter table `c`.`db`.`t`")
                    .hasMessageContaining("option '" + key + "' cannot be set");
            assertThatThrownBy(() -> translate(TableChange.reset(key)))
                    .hasMessageContaining("option '" + key + "' cannot be reset");
        }
        assertThatThrownBy(() -> translate(TableChange.set("connector", "kafka")))
                .hasMessageContaining("option 'connector' cannot be set");
    }

    @Test
    void metadataColumnsAndChangesOfColumnKindAreRefused() {
        Column computed = Column.computed("c",
                new FieldReferenceExpression("a", INT, 0, 0));
        Column metadata = Column.metadata("m", BIGINT, "offset", false);
        assertThatThrownBy(() -> translate(TableChange.add(metadata)))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("cannot add metadata column 'm'");
        assertThatThrownBy(() -> translate(TableChange.modify(Column.physical("c", INT), computed, null)))
                .hasMessageContaining("cannot turn physical column 'c' into the computed column");
        assertThatThrownBy(() -> translate(TableChange.modify(computed, Column.physical("c", INT), null)))
                .hasMessageContaining("cannot turn computed column 'c' into the physical column");
    }

    @Test
    void computedColumnsNeedTheResolvedSchemaToBeStored() {
        Column computed = Column.computed("c", new FieldReferenceExpression("a", INT, 0, 0));
        assertThatThrownBy(() -> translate(TableChange.add(computed)))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot alter table `c`.`db`.`t`: its computed columns [c] cannot be re-stored");
    }

    @Test
    void computedColumnsAreRewrittenFromTheAlteredSchema() {
        Column a = Column.physical("a", INT);
        Column e = Column.physical("e", INT);
        Column c = Column.computed("c", new FieldReferenceExpression("a", INT, 0, 1));
        ResolvedSchema altered = ResolvedSchema.of(e, a, c);
        List<SchemaChange> changes = translator.translate(
                List.of(TableChange.add(e, TableChange.ColumnPosition.first())),
                Map.of("schema.1.name", "c", "schema.1.data-type", "INT", "schema.1.expr", "`a`",
                        "bucket", "1"),
                altered);
        assertThat(changes).containsExactly(
                new AddColumn("e", DataTypes.INT(), null, Move.first()),
                new RemoveOption("schema.1.data-type"),
                new RemoveOption("schema.1.expr"),
                new RemoveOption("schema.1.name"),
                new SetOption("schema.2.data-type", "INT"),
                new SetOption("schema.2.expr", "`a`"),
                new SetOption("schema.2.name", "c"));
        assertThatThrownBy(() -> translator.translate(
                List.of(TableChange.add(Column.physical("x", INT), TableChange.ColumnPosition.after("c"))),
                Map.of("schema.1.name", "c"), altered))
                .hasMessageContaining("cannot place column 'x' AFTER computed column 'c'");
        assertThatThrownBy(() -> translate(TableChange.set("schema.1.expr", "`a` + 1")))
                .hasMessageContaining("option 'schema.1.expr' cannot be set: it holds a computed column");
        assertThatThrownBy(() -> translate(TableChange.reset("schema.watermark.0.rowtime")))
                .hasMessageContaining("option 'schema.watermark.0.rowtime' cannot be reset: it holds the watermark");
    }

    @Test
    void watermarksBecomeOptions() {
        WatermarkSpec watermark = WatermarkSpec.of("ts",
                new FieldReferenceExpression("ts", org.apache.flink.table.api.DataTypes.TIMESTAMP(3), 0, 0));
        assertThat(translate(TableChange.add(watermark))).containsExactlyInAnyOrder(
                new SchemaChange.SetOption("schema.watermark.0.rowtime", "ts"),
                new SchemaChange.SetOption("schema.watermark.0.strategy.expr", "`ts`"),
                new SchemaChange.SetOption("schema.watermark.0.strategy.data-type", "TIMESTAMP(3)"));
        assertThat(translate(TableChange.modify(watermark))).hasSize(3);
        assertThat(translate(TableChange.dropWatermark())).containsExactlyInAnyOrder(
                new SchemaChange.RemoveOption("schema.watermark.0.rowtime"),
                new SchemaChange.RemoveOption("schema.watermark.0.strategy.expr"),
                new SchemaChange.RemoveOption("schema.watermark.0.strategy.data-type"));
    }

    @Test
    void primaryKeysAndDistributionAreRefused() {
        assertThatThrownBy(() -> translate(TableChange.add(UniqueConstraint.primaryKey("pk", List.of("a")))))
                .hasMessageContaining("altering the primary key is not supported");
        assertThatThrownBy(() -> translate(TableChange.dropConstraint("pk")))
                .hasMessageContaining("altering the primary key is not supported");
        assertThatThrownBy(() -> translate(TableChange.add(TableDistribution.ofHash(List.of("a"), 4))))
                .hasMessageContaining("DISTRIBUTED BY is not supported");
    }

    @Test
    void unsupportedNewTypeNamesTheColumn() {
        Column a = Column.physical("a", INT);
        assertThatThrownBy(() -> translate(TableChange.modifyPhysicalColumnType(a,
                org.apache.flink.table.api.DataTypes.INTERVAL(org.apache.flink.table.api.DataTypes.DAY()))))
                .hasMessageContaining("column 'a'")
                .hasMessageContaining("INTERVAL");
    }
}
