package dev.streamhouse.flink.catalog.system;

import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * A read-only table computed from a data table's metadata, named {@code <table>$<name>}. Rows are
 * computed when the query runs (on a task manager), from the files under the table's directory.
 * Implementations are stateless and serializable.
 */
public interface SystemTable extends Serializable {

    /** The name after {@code $}, e.g. {@code files}. */
    String name();

    /** Column names and types, those of Apache Paimon's table of the same name. */
    RowType rowType();

    /**
     * The rows, in a deterministic order.
     *
     * @param dynamicOptions options of the query ({@code OPTIONS} hint), e.g. {@code scan.snapshot-id}
     * @throws IllegalArgumentException if an option is invalid (the message names it)
     */
    List<RowData> rows(FileStoreTable table, Map<String, String> dynamicOptions) throws IOException;
}
