package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataField;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code t$binlog}: the rows of the {@link AuditLogTable audit log} with every column of the table as
 * an array (Apache Paimon 1.3.1's binlog: {@code rowkind} STRING, then each column as a nullable
 * {@code ARRAY} of nullable elements of the column's type). An update read as a '-U' immediately
 * followed by a '+U' (the changelog of {@code changelog-producer} = {@code input}) becomes one row of
 * kind '+U' with {@code [before, after]} in every column; every other row has one-element arrays and
 * its own kind. Rows are all inserts.
 *
 * <p>Filters are applied to the packed rows (a filter on {@code rowkind} = '+U' keeps the packed
 * updates); only the partition and bucket pruning of the data read is unaffected by them.
 */
public final class BinlogTable extends DataViewTable {
    private static final long serialVersionUID = 1L;

    public static final String NAME = "binlog";

    public BinlogTable(FileStoreTable data) {
        super(data, NAME);
    }

    @Override
    public TableSchema schema() {
        List<DataField> arrays = new ArrayList<>();
        for (DataField f : data.schema().fields()) {
            arrays.add(new DataField(f.id(), f.name(), ArrayType.array(true, f.type().nullable()), f.description(),
                    null));
        }
        return changeViewSchema(arrays);
    }

    @Override
    public ReadBuilder newReadBuilder() {
        return new ChangeViewReadBuilder(ChangeViewReadBuilder.Shape.BINLOG, data.newReadBuilder().keepingRetractions(),
                schema().rowType(), fullName());
    }

    /** {@inheritDoc} The options are checked as dynamic options of the data table. */
    @Override
    public BinlogTable copy(Map<String, String> dynamicOptions) {
        return new BinlogTable(data.copy(dynamicOptions));
    }
}
