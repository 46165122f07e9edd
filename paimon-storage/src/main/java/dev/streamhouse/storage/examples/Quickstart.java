package dev.streamhouse.storage.examples;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * Creates a partitioned append table in a local warehouse, writes rows in two commits and reads them
 * back, whole and filtered. The table is readable by Apache Paimon 1.3.
 *
 * <p>Arguments: the warehouse (default {@code ./warehouse}), then further catalog options as
 * {@code key=value}, e.g. {@code metastore=hive uri=thrift://metastore:9083}.
 */
public final class Quickstart {
    public static void main(String[] args) throws Exception {
        String warehouse = args.length > 0 ? args[0] : "./warehouse";
        Options options = Options.of("warehouse", warehouse);
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("Catalog option '" + args[i] + "' is not key=value");
            }
            options.set(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        try (Catalog catalog = CatalogFactory.createCatalog(options)) {
            catalog.createDatabase("quickstart", true);
            Identifier id = Identifier.of("quickstart", "orders");
            catalog.dropTable(id, true);
            catalog.createTable(id, Schema.newBuilder()
                    .column("order_id", DataTypes.BIGINT())
                    .column("customer", DataTypes.STRING())
                    .column("amount", DataTypes.DECIMAL(10, 2))
                    .column("dt", DataTypes.DATE())
                    .partitionKeys("dt")
                    .comment("quickstart orders")
                    .build(), false);
            Table table = catalog.getTable(id);

            int day = (int) LocalDate.of(2026, 11, 29).toEpochDay();
            write(table, row(1, "alice", "12.50", day), row(2, "bob", "7.25", day));
            write(table, row(3, "carol", "99.99", day + 1), row(4, null, "0.01", day + 1));

            System.out.println("Snapshot " + table.latestSnapshot().orElseThrow().id() + " of " + table.fullName()
                    + " at " + warehouse);
            print("All rows:", table.newReadBuilder());
            PredicateBuilder pb = new PredicateBuilder(table.rowType());
            print("Rows of dt = 2026-11-30:",
                    table.newReadBuilder().withFilter(pb.equal(3, LocalDate.of(2026, 11, 30))));
        }
    }

    private static GenericRow row(long id, String customer, String amount, int day) {
        return GenericRow.of(id, BinaryString.fromString(customer),
                Decimal.fromBigDecimal(new BigDecimal(amount), 10, 2), day);
    }

    private static void write(Table table, InternalRow... rows) throws Exception {
        try (TableWrite write = table.newWrite(); BatchTableCommit commit = table.newBatchCommit()) {
            for (InternalRow r : rows) {
                write.write(r);
            }
            commit.commit(write.prepareCommit());
        }
    }

    private static void print(String title, ReadBuilder builder) throws Exception {
        System.out.println(title);
        RowType type = builder.readType();
        builder.newRead().executeFilter().createReader(builder.newScan().plan().splits()).forEachRemaining(r -> {
            StringBuilder sb = new StringBuilder("  ");
            for (int i = 0; i < type.fieldCount(); i++) {
                sb.append(i == 0 ? "" : " | ").append(type.field(i).name()).append('=').append(format(r, i));
            }
            System.out.println(sb);
        });
    }

    private static String format(InternalRow r, int pos) {
        if (r.isNullAt(pos)) {
            return "NULL";
        }
        switch (pos) {
            case 0:
                return String.valueOf(r.longAt(pos));
            case 1:
                return r.stringAt(pos).toString();
            case 2:
                return r.decimalAt(pos, 10, 2).toString();
            default:
                return LocalDate.ofEpochDay(r.intAt(pos)).toString();
        }
    }
}
