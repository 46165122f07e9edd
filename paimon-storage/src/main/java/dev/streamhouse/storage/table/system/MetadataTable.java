package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** A system table over one data table: its name and columns, and the rows, computed lazily. */
abstract class MetadataTable implements SystemTable {
    final FileStoreTable table;

    MetadataTable(FileStoreTable table) {
        this.table = table;
    }

    @Override
    public String fullName() {
        return table.fullName() + SystemTables.SPLITTER + name();
    }

    @Override
    public SystemTableRead newRead() {
        return new SystemTableRead(this);
    }

    /** The rows in a deterministic order, each a fresh object, computed as the iterator advances. */
    abstract Iterator<InternalRow> rows() throws IOException;

    /** A row type of {@code name, type} pairs; field ids are the positions. */
    static RowType columns(Object... nameTypePairs) {
        List<DataField> fields = new ArrayList<>();
        for (int i = 0; i < nameTypePairs.length; i += 2) {
            fields.add(new DataField(i / 2, (String) nameTypePairs[i], (DataType) nameTypePairs[i + 1]));
        }
        return new RowType(false, fields);
    }
}
