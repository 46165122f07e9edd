package dev.streamhouse.bench;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableRead;

import java.util.List;

/**
 * The {@code reader-scan} reader over Apache Paimon 1.3.1's Java API ({@code ReadBuilder},
 * {@code TableRead}), the same loop as streamhouse's. Compiled against Paimon's jar in this module's
 * Paimon-only source folder (src/paimon/java) and on the classpath of Paimon's runs only.
 */
final class PaimonStoreReader implements StoreReader {
    private Catalog catalog;

    @Override
    public void open(String warehouseUri) {
        Options options = new Options();
        options.set("warehouse", warehouseUri);
        catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    @Override
    public Sums scan(String database, String table) throws Exception {
        Table t = catalog.getTable(Identifier.create(database, table));
        ReadBuilder builder = t.newReadBuilder();
        List<Split> splits = builder.newScan().plan().splits();
        TableRead read = builder.newRead();
        List<String> names = t.rowType().getFieldNames();
        int i = names.indexOf("i");
        int b = names.indexOf("b");
        int s = names.indexOf("s");
        long rows = 0;
        long sumI = 0;
        long sumB = 0;
        long stringBytes = 0;
        for (Split split : splits) {
            try (RecordReader<InternalRow> reader = read.createReader(split)) {
                RecordReader.RecordIterator<InternalRow> batch;
                while ((batch = reader.readBatch()) != null) {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        rows++;
                        if (!row.isNullAt(i)) {
                            sumI += row.getInt(i);
                        }
                        if (!row.isNullAt(b)) {
                            sumB += row.getLong(b);
                        }
                        if (!row.isNullAt(s)) {
                            stringBytes += row.getString(s).getSizeInBytes();
                        }
                    }
                    batch.releaseBatch();
                }
            }
        }
        return new Sums(splits.size(), rows, sumI, sumB, stringBytes);
    }

    @Override
    public void close() throws Exception {
        if (catalog != null) {
            catalog.close();
        }
    }
}
