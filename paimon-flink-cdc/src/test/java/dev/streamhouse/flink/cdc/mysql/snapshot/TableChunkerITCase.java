package dev.streamhouse.flink.cdc.mysql.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.TableDiscovery;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Splitting real tables: the chunks cover every row exactly once, in key order, and each row's key
 * lies in its chunk's range by {@link KeyOrder} too (the Java order agrees with the server's).
 */
class TableChunkerITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @BeforeAll
    static void createTables() {
        MARIADB.execute("CREATE DATABASE tc",
                "CREATE TABLE tc.dense (id INT PRIMARY KEY, v INT)",
                "INSERT INTO tc.dense SELECT seq, seq FROM tc.seq_1_to_1000",
                "ANALYZE TABLE tc.dense",
                "CREATE TABLE tc.sparse (id BIGINT PRIMARY KEY)",
                "INSERT INTO tc.sparse SELECT seq * 10000000 FROM tc.seq_1_to_100",
                "CREATE TABLE tc.composite (a INT, b VARCHAR(10) COLLATE utf8mb4_bin, v INT, PRIMARY KEY (a, b))",
                "INSERT INTO tc.composite SELECT seq % 7, CONCAT(CHAR(65 + seq % 50), seq), seq FROM tc.seq_1_to_700",
                "INSERT INTO tc.composite VALUES (3, 'a', 0), (3, 'a\\t', 0), (3, 'B', 0), (3, '\u00e9', 0), "
                        + "(3, '\ud83d\ude00', 0), (3, '\uffef', 0), (3, '', 0)",
                "CREATE TABLE tc.bin (k VARBINARY(8) PRIMARY KEY)",
                "INSERT INTO tc.bin SELECT UNHEX(SUBSTR(SHA1(seq), 1, 2 + 2 * (seq % 4))) FROM tc.seq_1_to_300 "
                        + "ON DUPLICATE KEY UPDATE k = k",
                "CREATE TABLE tc.dates (d DATETIME(3) PRIMARY KEY)",
                "INSERT INTO tc.dates SELECT TIMESTAMP'1999-12-31 23:00:00' + INTERVAL seq * 7 SECOND FROM tc.seq_1_to_500",
                "CREATE TABLE tc.empty (id INT PRIMARY KEY)",
                "CREATE TABLE tc.ci (name VARCHAR(10) PRIMARY KEY, v INT)",
                "INSERT IGNORE INTO tc.ci SELECT CONCAT(IF(seq % 2 = 0, 'k', 'K'), seq % 300), seq FROM tc.seq_1_to_400",
                "INSERT IGNORE INTO tc.ci VALUES ('a', 0), ('B', 0), ('c\\t', 0), ('c', 0), ('\u00e4x', 0), "
                        + "('ss', 0), ('\u00df', 0), ('\ud83d\ude00', 0), ('', 0), ('Z ', 0)",
                "CREATE TABLE tc.latin (name CHAR(6) CHARACTER SET latin1 COLLATE latin1_german2_ci PRIMARY KEY)",
                "INSERT IGNORE INTO tc.latin SELECT CONCAT(CHAR(65 + seq % 26), CHAR(228 + seq % 3 USING latin1), seq) "
                        + "FROM tc.seq_1_to_200",
                "CREATE TABLE tc.sets (k SET('a', 'b', 'c') PRIMARY KEY)");
    }

    private static CapturedTable table(String name) throws Exception {
        try (Connection c = MARIADB.rootConnection()) {
            return TableDiscovery.tableOf(c, new CdcTableId("tc", name));
        }
    }

    /** Splits the table and reads every chunk; checks coverage and order; returns the chunk sizes. */
    private static List<Integer> splitAndRead(String name, int chunkSize, int expectedRows) throws Exception {
        CapturedTable table = table(name);
        KeyOrder order = KeyOrder.of(table);
        try (Connection weightsConnection = MARIADB.rootConnection()) {
            return splitAndRead(table, order, new ServerCollationWeights(() -> weightsConnection), chunkSize,
                    expectedRows);
        }
    }

    private static List<Integer> splitAndRead(CapturedTable table, KeyOrder order, CollationWeights weights,
            int chunkSize, int expectedRows) throws Exception {
        List<ChunkRange> ranges;
        try (Connection c = MARIADB.rootConnection()) {
            c.createStatement().execute("SET time_zone = '+00:00'");
            ranges = TableChunker.split(c, table, chunkSize);
        }
        assertThat(ranges.get(0).lower()).isNull();
        assertThat(ranges.get(ranges.size() - 1).upper()).isNull();
        List<Integer> sizes = new ArrayList<>();
        Object[] previous = null;
        try (ChunkReader reader = new ChunkReader(ChunkReaderITCase.config(MARIADB, "tc"), 7100)) {
            for (int i = 0; i < ranges.size(); i++) {
                ChunkRange range = ranges.get(i);
                if (i > 0) {
                    assertThat(range.lower()).isEqualTo(ranges.get(i - 1).upper());
                }
                List<Object[]> rows = reader.read(table, range).rows();
                sizes.add(rows.size());
                for (Object[] row : rows) {
                    Object[] key = order.keyOf(row);
                    assertThat(range.contains(key, order, weights))
                            .as("%s in %s", java.util.Arrays.deepToString(key), range).isTrue();
                    if (previous != null) {
                        assertThat(order.compare(previous, key, weights)).as("key order").isNegative();
                    }
                    previous = key;
                }
            }
        }
        assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(expectedRows);
        return sizes;
    }

    @Test
    void denseIntegerKeysSplitEvenly() throws Exception {
        List<Integer> sizes = splitAndRead("dense", 100, 1000);
        assertThat(sizes.size()).isBetween(8, 13);
        assertThat(sizes).allMatch(n -> n <= 150);
    }

    @Test
    void sparseCompositeBinaryAndTemporalKeysSplitAtEveryChunkSizeThKey() throws Exception {
        assertThat(splitAndRead("sparse", 10, 100)).containsExactly(10, 10, 10, 10, 10, 10, 10, 10, 10, 10);
        List<Integer> composite = splitAndRead("composite", 64, 707);
        assertThat(composite).allMatch(n -> n <= 64);
        assertThat(composite.size()).isEqualTo(707 / 64 + 1);
        int binRows;
        try (Connection c = MARIADB.rootConnection(); var rs = c.createStatement().executeQuery(
                "SELECT COUNT(*) FROM tc.bin")) {
            rs.next();
            binRows = rs.getInt(1);
        }
        assertThat(splitAndRead("bin", 50, binRows)).allMatch(n -> n <= 50);
        assertThat(splitAndRead("dates", 128, 500)).containsExactly(128, 128, 128, 116);
    }

    @Test
    void anEmptyTableIsOneChunk() throws Exception {
        assertThat(splitAndRead("empty", 10, 0)).containsExactly(0);
    }

    @Test
    void keysInLinguisticCollationsSplitAndOrderAsTheServerSortsThem() throws Exception {
        assertThat(splitAndRead("ci", 37, count("ci"))).allMatch(n -> n <= 37);
        assertThat(splitAndRead("latin", 16, count("latin"))).allMatch(n -> n <= 16);
    }

    @Test
    void aKeyWhoseOrderCannotBeReproducedIsRefused() {
        assertThatThrownBy(() -> splitAndRead("sets", 10, 0)).isInstanceOf(UnsupportedChunkKeyException.class)
                .hasMessageContaining("tc.sets", "'k'", "SET");
    }

    private static int count(String table) throws Exception {
        try (Connection c = MARIADB.rootConnection(); var rs = c.createStatement().executeQuery(
                "SELECT COUNT(*) FROM tc." + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
