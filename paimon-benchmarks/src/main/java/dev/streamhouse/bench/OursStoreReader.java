package dev.streamhouse.bench;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.Split;
import dev.streamhouse.storage.table.source.TableRead;

import java.util.List;

/** {@link StoreReader} over streamhouse's storage API ({@code ReadBuilder}, {@code TableRead}). */
final class OursStoreReader implements StoreReader {
    private Catalog catalog;

    @Override
    public void open(String warehouseUri) {
        catalog = CatalogFactory.createCatalog(Options.of("warehouse", warehouseUri));
    }

    @Override
    public Sums scan(String database, String table) throws Exception {
        Table t = catalog.getTable(Identifier.of(database, table));
        ReadBuilder builder = t.newReadBuilder();
        List<? extends Split> splits = builder.newScan().plan().splits();
        TableRead read = builder.newRead();
        int i = t.rowType().fieldIndex("i");
        int b = t.rowType().fieldIndex("b");
        int s = t.rowType().fieldIndex("s");
        long rows = 0;
        long sumI = 0;
        long sumB = 0;
        long stringBytes = 0;
        for (Split split : splits) {
            try (RecordReader<InternalRow> reader = read.createReader(split)) {
                RecordIterator<InternalRow> batch;
                while ((batch = reader.readBatch()) != null) {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        rows++;
                        if (!row.isNullAt(i)) {
                            sumI += row.intAt(i);
                        }
                        if (!row.isNullAt(b)) {
                            sumB += row.longAt(b);
                        }
                        if (!row.isNullAt(s)) {
                            stringBytes += row.stringAt(s).byteLength();
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
