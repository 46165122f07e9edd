package dev.streamhouse.flink.cdc.mysql.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.TableDiscovery;
import dev.streamhouse.flink.cdc.source.MySqlCdcSource;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.EventStrings;
import dev.streamhouse.flink.cdc.testing.AllColumnTypes;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reading chunks against MariaDB: a chunk is its rows as of its high watermark. Changes made between
 * the watermarks (by the test hook, so that they surely fall there) reach the rows through the
 * binlog window: the backfilled rows must equal what a later plain read of the chunk returns, for
 * every column type, so the binlog's values decode exactly as JDBC reads them.
 */
class ChunkReaderITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @BeforeAll
    static void createTables() {
        MARIADB.execute("SET GLOBAL time_zone = '+00:00'", "CREATE DATABASE cr",
                "CREATE TABLE cr.all_types (" + AllColumnTypes.COLUMNS + ")",
                "CREATE TABLE cr.kv (id INT PRIMARY KEY, v VARCHAR(10))");
        StringBuilder insert = new StringBuilder("INSERT INTO cr.all_types (id) VALUES (0)");
        for (int id = 1; id <= 9; id++) {
            insert.append(", (").append(id * 10).append(")");
        }
        MARIADB.execute(insert.toString(), "UPDATE cr.all_types SET c_int = id");
        MARIADB.execute("INSERT INTO cr.kv VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')");
    }

    @AfterEach
    void clearHook() {
        ChunkReader.setTestHook(null);
    }

    static MySqlSourceConfig config() {
        return config(MARIADB, "cr");
    }

    static MySqlSourceConfig config(MariaDbExtension server, String database) {
        return MySqlCdcSource.<String>builder().hostname(server.host()).port(server.port())
                .username(MariaDbExtension.CDC_USER).password(MariaDbExtension.CDC_PASSWORD).databaseName(database)
                .deserializer(new EventStrings(false)).build().config();
    }

    static CapturedTable table(String name) throws Exception {
        try (Connection c = MARIADB.rootConnection()) {
            return TableDiscovery.tableOf(c, new CdcTableId("cr", name));
        }
    }

    @Test
    void changesBetweenTheWatermarksReachTheRowsDecodedAsJdbcReadsThem() throws Exception {
        CapturedTable table = table("all_types");
        ChunkRange range = new ChunkRange(new Object[] {20L}, new Object[] {70L});
        AtomicInteger hookRuns = new AtomicInteger();
        ChunkReader.setTestHook((id, r) -> {
            if (hookRuns.getAndIncrement() == 0) {
                MARIADB.execute(
                        // every column gets a value (update in range), a new row in range, one out of range
                        "UPDATE cr.all_types SET " + assignments() + " WHERE id = 30",
                        "INSERT INTO cr.all_types VALUES (35, " + AllColumnTypes.VALUES + ")",
                        "INSERT INTO cr.all_types VALUES (75, " + AllColumnTypes.VALUES + ")",
                        // a delete, a key moving out of the range and one moving in
                        "DELETE FROM cr.all_types WHERE id = 40",
                        "UPDATE cr.all_types SET id = 71 WHERE id = 50",
                        "UPDATE cr.all_types SET id = 25 WHERE id = 90",
                        // a row set to NULLs again
                        "UPDATE cr.all_types SET c_int = NULL WHERE id = 20");
            }
        });
        ChunkReader.ChunkResult backfilled;
        try (ChunkReader reader = new ChunkReader(config(), 7001)) {
            backfilled = reader.read(table, range);
        }
        assertThat(backfilled.changesApplied()).isGreaterThanOrEqualTo(7);
        ChunkReader.ChunkResult plain;
        try (ChunkReader reader = new ChunkReader(config(), 7001)) {
            plain = reader.read(table, range);
        }
        assertThat(plain.changesApplied()).isZero();
        List<Object[]> rows = new ArrayList<>(backfilled.rows());
        rows.sort(java.util.Comparator.comparing(r -> (Long) r[0]));
        assertThat(ids(rows)).containsExactly(20L, 25L, 30L, 35L, 60L);
        Object[] updated = rows.get(2);
        Object[] inserted = rows.get(3);
        assertThat(Arrays.copyOfRange(updated, 1, updated.length)).isEqualTo(Arrays.copyOfRange(inserted, 1, inserted.length));
        assertThat(updated[21]).isEqualTo("hello");
        assertThat(updated[26]).isEqualTo(new byte[] {1, 2, 0});
        assertThat(updated[40]).isEqualTo("it's");
        assertThat(updated[41]).isEqualTo("x,z");
        assertThat(updated[45]).isEqualTo("\u00e4\u00f6\u20ac");
        assertThat(updated[33]).isEqualTo(java.time.Duration.ofHours(-838).minusMinutes(59).minusSeconds(59));
        assertThat(strings(rows)).isEqualTo(strings(plain.rows()));
        assertThat(deepEquals(rows, plain.rows())).isTrue();
        assertThat(backfilled.highWatermark().isBefore(plain.highWatermark())
                || backfilled.highWatermark().equals(plain.highWatermark())).isTrue();
    }

    private static final String ZERO_DATES = "'0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', "
            + "'0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00'";

    @Test
    void zeroDatesReadTheSameEitherWay() throws Exception {
        MARIADB.execute("CREATE TABLE cr.zero (id INT PRIMARY KEY, d DATE, dt DATETIME, ts TIMESTAMP NULL, "
                + "dn DATE NOT NULL, dtn DATETIME NOT NULL, tsn TIMESTAMP NOT NULL DEFAULT 0)");
        try (Connection c = MARIADB.rootConnection(); var s = c.createStatement()) {
            s.execute("SET SESSION sql_mode = ''");
            s.execute("INSERT INTO cr.zero VALUES (1, " + ZERO_DATES + ")");
        }
        CapturedTable table = table("zero");
        ChunkReader.setTestHook((id, r) -> {
            try (Connection c = MARIADB.rootConnection(); var s = c.createStatement()) {
                s.execute("SET SESSION sql_mode = ''");
                s.execute("INSERT INTO cr.zero VALUES (2, " + ZERO_DATES + ")");
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        List<Object[]> backfilled;
        try (ChunkReader reader = new ChunkReader(config(), 7004)) {
            backfilled = new ArrayList<>(reader.read(table, ChunkRange.all()).rows());
        }
        ChunkReader.setTestHook(null);
        List<Object[]> plain;
        try (ChunkReader reader = new ChunkReader(config(), 7004)) {
            plain = reader.read(table, ChunkRange.all()).rows();
        }
        backfilled.sort(java.util.Comparator.comparing(r -> (Long) r[0]));
        assertThat(strings(backfilled)).isEqualTo(strings(plain));
        // As Debezium's records: a zero DATE or DATETIME is null when nullable, else the epoch; a zero
        // TIMESTAMP (second 0) is the epoch.
        String epochs = "1970-01-01(LocalDate), 1970-01-01T00:00(LocalDateTime), 1970-01-01T00:00:00Z(Instant), ";
        assertThat(strings(plain)).containsExactly("1(Long), null, null, 1970-01-01T00:00:00Z(Instant), " + epochs,
                "2(Long), null, null, 1970-01-01T00:00:00Z(Instant), " + epochs);
    }

    @Test
    void aChunkWithoutChangesIsReadWithoutTheBinlog() throws Exception {
        CapturedTable table = table("kv");
        try (ChunkReader reader = new ChunkReader(config(), 7002)) {
            ChunkReader.ChunkResult all = reader.read(table, ChunkRange.all());
            assertThat(all.changesApplied()).isZero();
            assertThat(ids(all.rows())).containsExactly(1L, 2L, 3L, 4L, 5L);
            ChunkReader.ChunkResult middle = reader.read(table, new ChunkRange(new Object[] {2L}, new Object[] {4L}));
            assertThat(ids(middle.rows())).containsExactly(2L, 3L);
        }
    }

    @Test
    void ddlBetweenTheWatermarksFailsNamingTheTable() throws Exception {
        MARIADB.execute("CREATE TABLE cr.altered (id INT PRIMARY KEY, v INT)", "INSERT INTO cr.altered VALUES (1, 1)");
        CapturedTable table = table("altered");
        ChunkReader.setTestHook((id, r) -> MARIADB.execute("ALTER TABLE cr.altered ADD COLUMN w INT",
                "INSERT INTO cr.altered VALUES (2, 2, 2)"));
        try (ChunkReader reader = new ChunkReader(config(), 7003)) {
            assertThatThrownBy(() -> reader.read(table, ChunkRange.all()))
                    .hasMessageContaining("cr.altered")
                    .satisfies(e -> assertThat(String.valueOf(e.getMessage()) + e.getCause())
                            .containsAnyOf("changed its definition", "Table definition has changed"));
        }
    }

    private static String assignments() {
        String[] names = AllColumnTypes.COLUMNS.split(", (?=c_)");
        String[] values = AllColumnTypes.VALUES.split(", (?=(?:[^']*'[^']*')*[^']*$)(?![^()]*\\))");
        List<String> set = new ArrayList<>();
        for (int i = 1; i < names.length; i++) {
            set.add(names[i].substring(0, names[i].indexOf(' ')) + " = " + values[i - 1]);
        }
        return String.join(", ", set);
    }

    private static List<Long> ids(List<Object[]> rows) {
        List<Long> ids = new ArrayList<>();
        rows.forEach(r -> ids.add((Long) r[0]));
        return ids;
    }

    private static List<String> strings(List<Object[]> rows) {
        List<String> out = new ArrayList<>();
        for (Object[] r : rows) {
            StringBuilder s = new StringBuilder();
            for (Object v : r) {
                s.append(v instanceof byte[] b ? "0x" + java.util.HexFormat.of().formatHex(b) : String.valueOf(v))
                        .append(v == null ? "" : "(" + v.getClass().getSimpleName() + ")").append(", ");
            }
            out.add(s.toString());
        }
        return out;
    }

    private static boolean deepEquals(List<Object[]> a, List<Object[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.deepEquals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
