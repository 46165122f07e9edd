package dev.streamhouse.flink.cdc.table;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import java.util.HashSet;
import java.util.List;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeCasts;

/**
 * Checks a {@code mysql-cdc} table's declared schema against a MySQL table's: the same primary key,
 * every declared column present, and each declared type one that the MySQL type's Flink type
 * casts to implicitly (the mapped type itself, or a wider one).
 */
final class DeclaredSchemaCheck {

    private DeclaredSchemaCheck() {}

    static void check(String flinkTable, RowType declared, List<String> declaredKey, CdcSchema mysql) {
        if (mysql.primaryKeys().isEmpty()) {
            throw new IllegalArgumentException("Cannot read MySQL table " + mysql.table() + " into '" + flinkTable
                    + "': it has no primary key, and the 'mysql-cdc' connector needs one to emit updates and deletes");
        }
        if (!new HashSet<>(declaredKey).equals(new HashSet<>(mysql.primaryKeys()))) {
            throw new IllegalArgumentException("Table '" + flinkTable + "' declares PRIMARY KEY " + declaredKey
                    + " but MySQL table " + mysql.table() + " has PRIMARY KEY " + mysql.primaryKeys()
                    + "; declare PRIMARY KEY (" + String.join(", ", mysql.primaryKeys()) + ") NOT ENFORCED");
        }
        for (RowType.RowField field : declared.getFields()) {
            int index = mysql.indexOf(field.getName());
            if (index < 0) {
                throw new IllegalArgumentException("Table '" + flinkTable + "' declares column '" + field.getName()
                        + "' that MySQL table " + mysql.table() + " does not have (it has " + mysql.columnNames() + ")");
            }
            CdcColumn column = mysql.columns().get(index);
            DataType mapped = MySqlTypeMapping.toFlinkType(column.type(), column.name());
            LogicalType from = mapped.getLogicalType().copy(true);
            LogicalType to = field.getType().copy(true);
            if (!from.equals(to) && !LogicalTypeCasts.supportsImplicitCast(from, to)) {
                throw new IllegalArgumentException("Column '" + field.getName() + "' of table '" + flinkTable
                        + "' is declared " + field.getType().asSummaryString() + ", but MySQL table " + mysql.table()
                        + " has it as " + column.type() + ", which reads as " + mapped.getLogicalType().asSummaryString()
                        + "; declare it " + mapped.getLogicalType().asSummaryString() + " (or a wider type)");
            }
        }
    }
}
