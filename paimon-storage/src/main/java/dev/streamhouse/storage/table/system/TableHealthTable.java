package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.STRING;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.maintenance.health.HealthFinding;
import dev.streamhouse.storage.maintenance.health.TableHealth;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.util.Iterator;
import java.util.List;

/**
 * {@code t$table_health}: the findings of {@link TableHealth} for the table's latest snapshot and
 * current options (time-travel options do not apply), most severe first; no rows for a healthy
 * table. Computed from metadata only when the table is read.
 */
final class TableHealthTable extends MetadataTable {
    /** The name after {@code $}. */
    static final String NAME = "table_health";

    /** The columns, shared with {@code CALL sys.table_health}. */
    static final RowType ROW_TYPE = columns(
            "severity", STRING().notNull(),
            "check_name", STRING().notNull(),
            "affected", STRING().notNull(),
            "measured", STRING().notNull(),
            "threshold", STRING().notNull(),
            "description", STRING().notNull(),
            "recommendation", STRING().notNull());

    TableHealthTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    Iterator<InternalRow> rows() {
        List<HealthFinding> findings = TableHealth.of(table).check();
        return findings.stream().map(TableHealthTable::toRow).iterator();
    }

    static InternalRow toRow(HealthFinding f) {
        return GenericRow.of(
                BinaryString.fromString(f.severity().name()),
                BinaryString.fromString(f.check()),
                BinaryString.fromString(f.scope()),
                BinaryString.fromString(f.measured()),
                BinaryString.fromString(f.threshold()),
                BinaryString.fromString(f.description()),
                BinaryString.fromString(f.recommendation()));
    }
}
