package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.columnar.ObjectVector;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.util.List;

/**
 * Reads one top-level nested column (ARRAY, MULTISET, MAP, ROW, VARIANT) of a row group with
 * parquet-mr's record assembly, restricted to that column's leaves, into an {@link ObjectVector} of
 * internal values, row by row. Nested values are not decoded into vectors of their own: each value is
 * assembled as the row reader assembles it ({@link RowConverter} and friends). It shares the row
 * group's page store with the flat columns, whose pages it never touches; with page-index filtering it
 * returns exactly the rows the page store selects, in order, as the flat columns do. Not thread-safe.
 */
final class NestedColumnReader {
    private final MessageColumnIO columnIO;
    private final RowMaterializer materializer;
    private RecordReader<InternalRow> records;

    NestedColumnReader(DataType readType, Type requestedField, MessageType fileSchema, String createdBy) {
        RowType single = new RowType(List.of(new DataField(0, requestedField.getName(), readType)));
        MessageType requested = new MessageType(fileSchema.getName(), requestedField);
        this.columnIO = new ColumnIOFactory(createdBy).getColumnIO(requested, fileSchema, true);
        this.materializer = new RowMaterializer(single, requested);
    }

    void startRowGroup(PageReadStore pages) {
        records = columnIO.getRecordReader(pages, materializer);
    }

    /** Reads the next {@code n} values of the row group into rows {@code [0, n)}. */
    void read(int n, ObjectVector vector) throws IOException {
        for (int i = 0; i < n; i++) {
            InternalRow row = records.read();
            if (row == null) {
                throw new IOException("a record of the row group decoded to nothing");
            }
            vector.set(i, ((GenericRow) row).field(0));
        }
    }
}
