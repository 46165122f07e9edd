package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.ReadBuilder;

import java.util.Map;

/**
 * {@code t$audit_log}: every row of a read of the table with its row kind as a leading column
 * {@code rowkind} (STRING, nullable as in Apache Paimon 1.3.1: '+I', '-U', '+U' or '-D'), then all
 * columns of the table; the rows themselves are all inserts, so a consumer sees retractions as data.
 *
 * <p>It reads what a read of the data table with the same options reads (Apache Paimon 1.3.1 does the
 * same, verified with its jar):
 * <ul>
 *   <li>a batch read, and the first plan of a streaming read that starts with a full snapshot: each
 *       key's merged version with the kind of its latest version, also when that is a deletion
 *       ('-D'), which a read of the table leaves out; rows of an append table are '+I';</li>
 *   <li>changes ({@code incremental-between}, streaming reads): each stored change with its kind; with
 *       {@code changelog-producer} = {@code input} the changelog files (-U and +U of an update), with
 *       {@code none} the new data files (the writer already merged the versions of a key within one
 *       flush, so there an update shows only as '+U').</li>
 * </ul>
 * Projection and filters work on every column, {@code rowkind} included.
 */
public final class AuditLogTable extends DataViewTable {
    private static final long serialVersionUID = 1L;

    public static final String NAME = "audit_log";

    public AuditLogTable(FileStoreTable data) {
        super(data, NAME);
    }

    @Override
    public TableSchema schema() {
        return changeViewSchema(data.schema().fields());
    }

    @Override
    public ReadBuilder newReadBuilder() {
        return new ChangeViewReadBuilder(ChangeViewReadBuilder.Shape.AUDIT_LOG, data.newReadBuilder().keepingRetractions(),
                schema().rowType(), fullName());
    }

    /** {@inheritDoc} The options are checked as dynamic options of the data table. */
    @Override
    public AuditLogTable copy(Map<String, String> dynamicOptions) {
        return new AuditLogTable(data.copy(dynamicOptions));
    }
}
