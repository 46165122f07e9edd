package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Partition;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.sink.WriteContext;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A system table that shows the data of a data table, read like a table (batch and streaming, with
 * the data table's scan options) rather than computed from metadata: {@code t$audit_log},
 * {@code t$binlog}, {@code t$ro}. Snapshots and partitions are the data table's; it is read-only.
 */
abstract class DataViewTable implements Table {
    private static final long serialVersionUID = 1L;

    /** The name of the leading column of the audit log and binlog, as in Apache Paimon. */
    static final String ROW_KIND_COLUMN = "rowkind";

    final FileStoreTable data;
    private final String name;

    DataViewTable(FileStoreTable data, String name) {
        this.data = data;
        this.name = name;
    }

    /** The data table shown, with the options this view was given. */
    public FileStoreTable dataTable() {
        return data;
    }

    @Override
    public String fullName() {
        return data.fullName() + SystemTables.SPLITTER + name;
    }

    /**
     * The schema of a change view: a nullable STRING {@code rowkind} first, then the given columns; the
     * data table's partition keys and options, no primary key (rows are changes, several per key).
     * Field ids are not stored anywhere; {@code rowkind} takes the id after the data table's highest.
     */
    TableSchema changeViewSchema(List<DataField> columns) {
        TableSchema s = data.schema();
        List<DataField> fields = new ArrayList<>(columns.size() + 1);
        fields.add(new DataField(s.highestFieldId() + 1, ROW_KIND_COLUMN, DataTypes.STRING()));
        fields.addAll(columns);
        return new TableSchema(s.version(), s.id(), fields, s.highestFieldId() + 1, s.partitionKeys(), List.of(),
                s.options(), s.comment(), s.timeMillis());
    }

    @Override
    public Optional<Snapshot> latestSnapshot() {
        return data.latestSnapshot();
    }

    @Override
    public Optional<Snapshot> snapshot(long id) {
        return data.snapshot(id);
    }

    @Override
    public List<Partition> partitions() {
        return data.partitions();
    }

    @Override
    public TableWrite newWrite(WriteContext context) {
        throw readOnly();
    }

    @Override
    public BatchTableCommit newBatchCommit() {
        throw readOnly();
    }

    @Override
    public TableCommit newStreamCommit(String commitUser) {
        throw readOnly();
    }

    private UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("Cannot write to " + fullName() + ": system tables are read-only; "
                + "write to " + data.fullName() + " instead");
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{" + fullName() + "}";
    }
}
