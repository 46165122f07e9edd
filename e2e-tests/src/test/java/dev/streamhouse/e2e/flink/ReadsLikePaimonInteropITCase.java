package dev.streamhouse.e2e.flink;

import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.OurRows;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads that once differed from Apache Paimon 1.3.1's on the seeds' own SQL, now row for row alike:
 * the same statements through our catalog and Paimon's own Flink catalog ({@link TwoCatalogs}) on one
 * warehouse, each store reading both stores' tables.
 */
class ReadsLikePaimonInteropITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension();

    @TempDir
    Path warehouse;

    private TableEnvironment tEnv;
    private PaimonOracle paimon;

    @BeforeEach
    void open() {
        tEnv = TwoCatalogs.open(warehouse);
        tEnv.getConfig().set("parallelism.default", "1");
        paimon = new PaimonOracle(warehouse);
    }

    @AfterEach
    void close() throws Exception {
        paimon.close();
    }

    private void sql(String statement) throws Exception {
        tEnv.executeSql(statement).await();
    }

    private List<String> rows(String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        if (!query.startsWith("DESCRIBE")) {
            out.sort(null); // the order of rows across tasks is not defined; a description's is
        }
        return out;
    }

    /** The same statement through both catalogs, on the table {@code o} (ours) and {@code p} (Paimon's). */
    private void both(String statement) throws Exception {
        sql(String.format(statement, "ours.`default`.o"));
        sql(String.format(statement, "theirs.`default`.p"));
    }

    /**
     * The rows of {@code query} (with {@code %s} for the table) read by each catalog from each store's
     * table, all checked equal, and returned.
     */
    private List<String> same(String query) throws Exception {
        List<String> reference = rows(String.format(query, "theirs.`default`.`p"));
        for (String table : List.of("theirs.`default`.`o", "ours.`default`.`p", "ours.`default`.`o")) {
            assertThat(rows(String.format(query, table))).as(String.format(query, table) + " reads as Paimon's "
                    + "catalog reads its own table").isEqualTo(reference);
        }
        return reference;
    }

    @Test
    void schemasCommentOfATableWithoutCommentIsEmptyAsInPaimon() throws Exception {
        both("CREATE TABLE %s (id INT, v STRING)");
        both("CREATE TABLE %s_c (id INT, v STRING) COMMENT 'with a comment'");
        assertThat(same("SELECT schema_id, `comment` FROM %s$schemas`")).containsExactly("+I[0, ]");
        assertThat(same("SELECT schema_id, `comment` FROM %s_c$schemas`")).containsExactly("+I[0, with a comment]");
    }

    /**
     * Paimon's catalog shows a table's computed columns (and watermark) in {@code $audit_log}, after the
     * physical columns, and in neither {@code $binlog} nor {@code $ro}; with a watermark its
     * {@code $binlog} cannot be resolved at all (the time column is an array there).
     */
    @Test
    void dataViewsOfATableWithComputedColumnsShowThemAsPaimonDoes() throws Exception {
        String columns = "c0 AS 7, id INT, a INT, c1 AS a + 1, event_time TIMESTAMP(3), "
                + "event_hour AS EXTRACT(HOUR FROM event_time) COMMENT 'the hour', ";
        both("CREATE TABLE %s (" + columns + "PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        both("CREATE TABLE %s_w (" + columns + "WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND, "
                + "PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        for (String table : List.of("%s", "%s_w")) {
            both("INSERT INTO " + table + " VALUES (1, 10, TIMESTAMP '2026-12-01 10:15:00'), "
                    + "(2, 20, TIMESTAMP '2026-12-01 11:00:00')");
            both("INSERT INTO " + table + " VALUES (1, 11, TIMESTAMP '2026-12-01 13:00:00')");
        }
        assertThat(same("DESCRIBE %s$audit_log`")).extracting(r -> r.substring(0, r.indexOf(',')))
                .containsExactly("+I[rowkind", "+I[id", "+I[a", "+I[event_time", "+I[c0", "+I[c1", "+I[event_hour");
        assertThat(same("SELECT * FROM %s$audit_log`"))
                .containsExactly("+I[+I, 1, 11, 2026-12-01T13:00, 7, 12, 13]", "+I[+I, 2, 20, 2026-12-01T11:00, 7, 21, 11]");
        same("SELECT event_hour, rowkind FROM %s$audit_log` WHERE event_hour > 12");
        same("DESCRIBE %s_w$audit_log`");
        same("SELECT * FROM %s_w$audit_log`");
        same("DESCRIBE %s$binlog`");
        same("SELECT * FROM %s$binlog`");
        same("DESCRIBE %s$ro`");
        same("SELECT * FROM %s$ro`");
    }

    /** Writes the rows with their kinds as one commit through our storage API. */
    private void ourWrite(String table, List<CanonicalRow> rows) throws Exception {
        Catalog catalog = CatalogFactory.createCatalog(
                dev.streamhouse.storage.options.Options.of("warehouse", warehouse.toUri().toString()));
        dev.streamhouse.storage.table.Table t = catalog.getTable(Identifier.of("default", table));
        try (TableWrite w = t.newWrite(); BatchTableCommit c = t.newBatchCommit()) {
            for (dev.streamhouse.storage.data.InternalRow r : OurRows.toOurs(rows, t.rowType())) {
                w.write(r);
            }
            c.commit(w.prepareCommit());
        }
    }

    /** The same rows, with their kinds, written as one commit by each store (ours into o, Paimon into p). */
    private void write(List<CanonicalRow> rows) throws Exception {
        ourWrite("o", rows);
        paimon.write("default", "p", rows);
    }

    /**
     * A batch read of a primary-key table returns each key's merged row with its stored kind (+U where
     * the latest version is an update), as Paimon's does: whether the versions met in one write buffer,
     * lie in different files, or were compacted into one file (read without merging).
     */
    @Test
    void batchReadsOfAPrimaryKeyTableKeepTheStoredRowKinds() throws Exception {
        both("CREATE TABLE %s (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        write(List.of(CanonicalRow.of(1, "a"), CanonicalRow.of(2, "b"), CanonicalRow.of(3, "c"),
                CanonicalRow.of(5, "e"), CanonicalRow.ofKind(Kind.UPDATE_AFTER, 5, "e2")));
        assertThat(same("SELECT * FROM %s`")).as("one file (versions merged in the write buffer), read without "
                + "merging: rows as inserts").contains("+I[5, e2]");
        write(List.of(CanonicalRow.ofKind(Kind.UPDATE_BEFORE, 1, "a"), CanonicalRow.ofKind(Kind.UPDATE_AFTER, 1, "a2"),
                CanonicalRow.ofKind(Kind.DELETE, 2, "b"), CanonicalRow.ofKind(Kind.UPDATE_AFTER, 4, "d")));
        assertThat(same("SELECT * FROM %s`")).as("two files, merged on read")
                .containsExactly("+I[3, c]", "+U[1, a2]", "+U[4, d]", "+U[5, e2]");
        same("SELECT id, v FROM %s` WHERE id > 2");
        same("SELECT * FROM %s$audit_log`");
        sql("CALL ours.sys.compact(`table` => 'default.o', compact_strategy => 'full')");
        paimon.compactAll("default", "p", true);
        assertThat(same("SELECT * FROM %s`")).as("one compacted file, read without merging: rows as inserts")
                .containsExactly("+I[1, a2]", "+I[3, c]", "+I[4, d]", "+I[5, e2]");
        same("SELECT * FROM %s$audit_log`");
        same("SELECT * FROM %s$ro`");
    }
}
