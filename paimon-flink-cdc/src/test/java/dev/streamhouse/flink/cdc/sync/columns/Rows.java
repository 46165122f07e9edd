package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.sync.TypeMapping;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Source schemas and rows of the tests, with the sync's default type mapping. */
final class Rows {
    static final CdcTableId TABLE = new CdcTableId("shop", "orders");
    static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");

    private Rows() {}

    /** A column of a MySQL type, e.g. {@code col("ts", "DATETIME", 3)}; nullable. */
    static CdcColumn col(String name, String type, int length) {
        return new CdcColumn(name, new MySqlType(type, false, length, -1), true, null);
    }

    static CdcColumn decimal(String name, int precision, int scale) {
        return new CdcColumn(name, new MySqlType("DECIMAL", false, precision, scale), true, null);
    }

    static CdcSchema schema(CdcColumn... columns) {
        return new CdcSchema(TABLE, List.of(columns), List.of(), 1);
    }

    /** The computed columns bound to {@code schema} (no metadata, no primary key, no table yet). */
    static BoundColumns bind(CdcSchema schema, String... computed) {
        return bind(schema, null, Set.of(), computed);
    }

    static BoundColumns bind(CdcSchema schema, RowType table, Set<String> primaryKeys, String... computed) {
        List<ComputedColumn> columns = new ArrayList<>();
        for (String c : computed) {
            columns.add(ComputedColumnParser.parse(c));
        }
        return ExtraColumns.of(columns, List.of()).bind(schema, types(schema), primaryKeys, table, ZONE);
    }

    static List<DataType> types(CdcSchema schema) {
        List<DataType> types = new ArrayList<>();
        for (CdcColumn c : schema.columns()) {
            types.add(TypeMapping.defaults().toTableType(c, false));
        }
        return types;
    }

    /** A binlog insert of {@code values} at {@code timeMillis}. */
    static CdcRecord insert(CdcSchema schema, long timeMillis, Object... values) {
        return new CdcRecord(schema, CdcRecord.Op.INSERT, null, values, timeMillis, false);
    }

    /** The added columns' values for a row of {@code values}. */
    static List<Object> added(BoundColumns bound, CdcSchema schema, Object... values) {
        Object[] all = bound.extend(values, insert(schema, 0, values));
        List<Object> out = new ArrayList<>();
        for (int i = values.length; i < all.length; i++) {
            out.add(all[i]);
        }
        return out;
    }

    /** The single computed column of {@code argument} over one column, for {@code value}. */
    static Object compute(String argument, CdcColumn column, Object value) {
        CdcSchema schema = schema(column);
        return added(bind(schema, argument), schema, value).get(0);
    }

    /** The type of the single computed column of {@code argument} over one column. */
    static String type(String argument, CdcColumn column) {
        return bind(schema(column), argument).types().get(0).asSQLString();
    }
}
