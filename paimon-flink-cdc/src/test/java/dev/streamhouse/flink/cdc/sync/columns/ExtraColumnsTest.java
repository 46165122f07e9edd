package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;

import static dev.streamhouse.flink.cdc.sync.columns.Rows.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The set of computed and metadata columns: order, names, binding to a source schema, values per row. */
class ExtraColumnsTest {
    private static final CdcSchema SCHEMA = Rows.schema(col("id", "INT", -1), col("ts", "DATETIME", 0),
            col("s", "VARCHAR", 10));

    private static ComputedColumn computed(String argument) {
        return ComputedColumnParser.parse(argument);
    }

    @Test
    void computedColumnsComeAfterTheComputedColumnsTheyReadThenMetadataColumns() {
        ExtraColumns extra = ExtraColumns.of(List.of(computed("b=upper(a)"), computed("a=substring(s, 1)"),
                computed("y=year(ts)")), MetadataColumn.parse(List.of("op_ts,table_name")));
        assertThat(extra.names()).containsExactly("a", "b", "y", "op_ts", "table_name");
        BoundColumns bound = extra.bind(SCHEMA, Rows.types(SCHEMA), Set.of(), null, Rows.ZONE);
        assertThat(bound.names()).containsExactly("a", "b", "y", "op_ts", "table_name");
        assertThat(bound.types().stream().map(t -> t.asSQLString()).toList()).containsExactly("STRING", "STRING",
                "INT", "TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL", "STRING NOT NULL");
        assertThat(bound.indexOf("a")).isEqualTo(3);
        assertThat(bound.indexOf("table_name")).isEqualTo(7);
        assertThat(bound.indexOf("id")).isEqualTo(-1);

        Object[] row = {1L, LocalDateTime.of(2024, 3, 5, 10, 0), "xabc"};
        Object[] all = bound.extend(row, Rows.insert(SCHEMA, 1_700_000_000_000L, row));
        assertThat(all).containsExactly(1L, LocalDateTime.of(2024, 3, 5, 10, 0), "xabc", "abc", "ABC", 2024,
                Instant.ofEpochMilli(1_700_000_000_000L), "orders");
    }

    @Test
    void computedColumnsOfNullInputsAreNull() {
        BoundColumns bound = Rows.bind(SCHEMA, "a=upper(s)", "b=lower(a)", "c=cast(1, INT)");
        assertThat(Rows.added(bound, SCHEMA, 1L, null, null)).containsExactly(null, null, 1L);
    }

    @Test
    void namesAreUniqueAndComputedColumnsDoNotReadEachOtherInACycle() {
        assertThatThrownBy(() -> ExtraColumns.of(List.of(computed("a=upper(s)"), computed("a=lower(s)")), List.of()))
                .hasMessage("Two --computed_column arguments make column 'a'");
        assertThatThrownBy(() -> ExtraColumns.of(List.of(computed("op_ts=now()")), List.of(MetadataColumn.OP_TS)))
                .hasMessage("--metadata_column op_ts and a --computed_column both make column 'op_ts'");
        assertThatThrownBy(() -> ExtraColumns.of(List.of(computed("a=upper(b)"), computed("b=lower(a)")), List.of()))
                .hasMessage("The --computed_column arguments ['a=upper(b)', 'b=lower(a)'] read each other in a cycle");
        assertThatThrownBy(() -> ExtraColumns.of(List.of(computed("a=upper(b)"), computed("b=lower(c)"),
                computed("c=trim(a)"), computed("d=trim(s)")), List.of()))
                .hasMessage("The --computed_column arguments ['a=upper(b)', 'b=lower(c)', 'c=trim(a)'] read each other "
                        + "in a cycle");
    }

    @Test
    void anAddedColumnNamedLikeASourceColumnOrReadingAMissingColumnFails() {
        assertThatThrownBy(() -> Rows.bind(SCHEMA, "s=upper(s)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot add column 's' (--computed_column 's=upper(s)') to the rows of source table "
                        + "shop.orders: the source has a column of that name; give the added column another name");
        assertThatThrownBy(() -> Rows.bind(SCHEMA, "x=upper(x)")).hasMessageContaining("it has no column 'x'");
        ExtraColumns metadata = ExtraColumns.of(List.of(), List.of(MetadataColumn.TABLE_NAME));
        CdcSchema withTableName = Rows.schema(col("id", "INT", -1), col("table_name", "VARCHAR", 10));
        assertThatThrownBy(() -> metadata.bind(withTableName, Rows.types(withTableName), Set.of(), null, Rows.ZONE))
                .hasMessageContaining("Cannot add column 'table_name' (--metadata_column table_name)");
        assertThatThrownBy(() -> Rows.bind(SCHEMA, "y=year(created)"))
                .hasMessage("Cannot compute --computed_column 'y=year(created)' for source table shop.orders: it has "
                        + "no column 'created' (its columns: [id, ts, s])");
        // A metadata column is no input of computed columns (as in Paimon 1.3.1).
        assertThatThrownBy(() -> ExtraColumns.of(List.of(computed("d=date_format(op_ts, yyyy)")),
                List.of(MetadataColumn.OP_TS)).bind(SCHEMA, Rows.types(SCHEMA), Set.of(), null, Rows.ZONE))
                .hasMessageContaining("it has no column 'op_ts'");
    }

    @Test
    void aColumnDroppedAtTheSourceMakesItsComputedColumnNullInAnExistingTable() {
        RowType table = new RowType(List.of(new DataField(0, "id", DataTypes.INT().notNull()),
                new DataField(1, "y", DataTypes.INT())));
        CdcSchema dropped = Rows.schema(col("id", "INT", -1));
        BoundColumns bound = Rows.bind(dropped, table, Set.of(), "y=year(ts)");
        assertThat(bound.types()).containsExactly(DataTypes.INT());
        assertThat(Rows.added(bound, dropped, 1L)).containsExactly((Object) null);
        // Without the table there is nothing to keep: the input must exist.
        assertThatThrownBy(() -> Rows.bind(dropped, "y=year(ts)")).hasMessageContaining("it has no column 'ts'");
    }

    @Test
    void primaryKeyColumnsAreNotNull() {
        BoundColumns bound = Rows.bind(SCHEMA, null, Set.of("id", "dt"), "dt=date_format(ts, yyyy-MM-dd)");
        assertThat(bound.types()).containsExactly(DataTypes.STRING().notNull());
    }

    @Test
    void metadataColumnsHaveTheSourceTableAndTheChangesTime() {
        CdcSchema schema = new CdcSchema(new dev.streamhouse.flink.cdc.event.CdcTableId("db1", "t1"),
                List.of(col("id", "INT", -1)), List.of("id"), 1);
        ExtraColumns extra = ExtraColumns.of(List.of(), MetadataColumn.parse(List.of("table_name", "database_name",
                "op_ts")));
        BoundColumns bound = extra.bind(schema, Rows.types(schema), Set.of("id"), null, Rows.ZONE);
        Object[] row = {1L};
        CdcRecord binlog = new CdcRecord(schema, CdcRecord.Op.DELETE, row, null, 1_700_000_001_000L, false);
        assertThat(bound.extend(row, binlog)).containsExactly(1L, "t1", "db1", Instant.ofEpochMilli(1_700_000_001_000L));
        // Snapshot rows: epoch 0, as Paimon writes (Flink CDC's snapshot records have ts_ms 0).
        CdcRecord snapshot = new CdcRecord(schema, CdcRecord.Op.INSERT, null, row, 1_700_000_002_000L, true);
        assertThat(bound.extend(row, snapshot)).containsExactly(1L, "t1", "db1", Instant.EPOCH);
    }

    @Test
    void metadataArgumentsAreCommaSeparatedNames() {
        assertThat(MetadataColumn.parse(List.of("table_name, OP_TS", "database_name", " , ")))
                .containsExactly(MetadataColumn.TABLE_NAME, MetadataColumn.OP_TS, MetadataColumn.DATABASE_NAME);
        assertThatThrownBy(() -> MetadataColumn.parse(List.of("table_name,schema_name")))
                .hasMessage("Unknown --metadata_column 'schema_name'; a MySQL sync has table_name, database_name, op_ts");
        assertThatThrownBy(() -> MetadataColumn.parse(List.of("op_ts", "op_ts")))
                .hasMessage("--metadata_column 'op_ts' is given twice");
        assertThat(MetadataColumn.TABLE_NAME.type()).isEqualTo(DataTypes.STRING().notNull());
        assertThat(MetadataColumn.DATABASE_NAME.type()).isEqualTo(DataTypes.STRING().notNull());
        assertThat(MetadataColumn.OP_TS.type()).isEqualTo(DataTypes.TIMESTAMP_LTZ(3).notNull());
    }
}
