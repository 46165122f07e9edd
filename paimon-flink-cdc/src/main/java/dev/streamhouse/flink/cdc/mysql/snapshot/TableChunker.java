package dev.streamhouse.flink.cdc.mysql.snapshot;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Splits a table into chunks of about {@code chunkSize} rows by primary key. A single-column
 * integer key whose values are dense enough (at most {@value #MAX_KEYS_PER_ROW} key values per
 * row, by the server's row estimate) is split evenly between its smallest and largest value, with
 * two queries. Any other key is split at every {@code chunkSize}-th key in key order ({@code ORDER BY
 * key LIMIT 1 OFFSET chunkSize}, one index range scan per chunk). Reads no row data and takes no
 * locks. The first range is open below and the last open above, so rows inserted later beyond
 * today's smallest or largest key still fall into a chunk.
 */
public final class TableChunker {

    /** Sparser integer keys are split by offsets: even steps would give mostly empty chunks. */
    static final double MAX_KEYS_PER_ROW = 1000;

    private static final Set<MySqlType.Family> INTEGER_TYPES = EnumSet.of(MySqlType.Family.TINYINT,
            MySqlType.Family.SMALLINT, MySqlType.Family.MEDIUMINT, MySqlType.Family.INT, MySqlType.Family.BIGINT);

    private TableChunker() {}

    /** The table's chunks in key order; fails as {@link KeyOrder#of} does for keys it cannot order. */
    public static List<ChunkRange> split(Connection connection, CapturedTable table, int chunkSize)
            throws SQLException {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("'scan.incremental.snapshot.chunk.size' must be positive, got " + chunkSize);
        }
        KeyOrder.of(table);
        CdcSchema schema = table.schema();
        if (schema.primaryKeys().size() == 1) {
            CdcColumn key = schema.columns().get(schema.indexOf(schema.primaryKeys().get(0)));
            if (INTEGER_TYPES.contains(key.type().family())) {
                List<ChunkRange> even = splitEvenly(connection, table, chunkSize, key);
                if (even != null) {
                    return even;
                }
            }
        }
        return splitByOffsets(connection, schema, chunkSize);
    }

    private static List<ChunkRange> splitEvenly(Connection connection, CapturedTable table, int chunkSize,
            CdcColumn key) throws SQLException {
        CdcSchema schema = table.schema();
        BigInteger min;
        BigInteger max;
        try (PreparedStatement s = ChunkQuery.minMax(schema).prepare(connection); ResultSet rs = s.executeQuery()) {
            rs.next();
            String low = rs.getString(1);
            if (low == null) {
                return List.of(ChunkRange.all());
            }
            min = new BigInteger(low);
            max = new BigInteger(rs.getString(2));
        }
        long rows = estimatedRows(connection, schema);
        boolean bigDecimalKeys = key.type().family() == MySqlType.Family.BIGINT && key.type().unsigned();
        return evenRanges(min, max, rows, chunkSize, bigDecimalKeys);
    }

    /**
     * Even ranges over [min, max] for about {@code rows} rows; null when the keys are too sparse
     * for it. Bounds are Longs, or BigDecimals for BIGINT UNSIGNED keys (as their values read).
     */
    static List<ChunkRange> evenRanges(BigInteger min, BigInteger max, long rows, int chunkSize,
            boolean bigDecimalKeys) {
        if (rows <= chunkSize) {
            return List.of(ChunkRange.all());
        }
        BigInteger span = max.subtract(min).add(BigInteger.ONE);
        if (new BigDecimal(span).compareTo(BigDecimal.valueOf(rows).multiply(BigDecimal.valueOf(MAX_KEYS_PER_ROW))) > 0) {
            return null;
        }
        // ceil(chunkSize * span / rows), at least 1
        BigInteger step = span.multiply(BigInteger.valueOf(chunkSize)).add(BigInteger.valueOf(rows - 1))
                .divide(BigInteger.valueOf(rows)).max(BigInteger.ONE);
        List<ChunkRange> ranges = new ArrayList<>();
        Object[] lower = null;
        for (BigInteger bound = min.add(step); bound.compareTo(max) <= 0; bound = bound.add(step)) {
            Object[] upper = {bigDecimalKeys ? new BigDecimal(bound) : (Object) bound.longValueExact()};
            ranges.add(new ChunkRange(lower, upper));
            lower = upper;
        }
        ranges.add(new ChunkRange(lower, null));
        return ranges;
    }

    private static List<ChunkRange> splitByOffsets(Connection connection, CdcSchema schema, int chunkSize)
            throws SQLException {
        JdbcValues.ColumnReader[] readers = keyReaders(schema);
        List<ChunkRange> ranges = new ArrayList<>();
        Object[] lower = null;
        while (true) {
            Object[] next = null;
            try (PreparedStatement s = ChunkQuery.keyAtOffset(schema, lower, chunkSize).prepare(connection);
                    ResultSet rs = s.executeQuery()) {
                if (rs.next()) {
                    next = new Object[readers.length];
                    for (int i = 0; i < readers.length; i++) {
                        next[i] = readers[i].read(rs, i + 1);
                    }
                }
            }
            ranges.add(new ChunkRange(lower, next));
            if (next == null) {
                return ranges;
            }
            lower = next;
        }
    }

    private static JdbcValues.ColumnReader[] keyReaders(CdcSchema schema) {
        JdbcValues.ColumnReader[] all = JdbcValues.readers(schema);
        JdbcValues.ColumnReader[] keys = new JdbcValues.ColumnReader[schema.primaryKeys().size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = all[schema.indexOf(schema.primaryKeys().get(i))];
        }
        return keys;
    }

    /** The server's estimate of the table's rows; an exact count when it has none. */
    private static long estimatedRows(Connection connection, CdcSchema schema) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("SELECT TABLE_ROWS FROM information_schema.TABLES "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            s.setString(1, schema.table().database());
            s.setString(2, schema.table().table());
            try (ResultSet rs = s.executeQuery()) {
                if (rs.next() && rs.getLong(1) > 0) {
                    return rs.getLong(1);
                }
            }
        }
        try (PreparedStatement s = connection.prepareStatement("SELECT COUNT(*) FROM "
                + ChunkQuery.table(schema.table())); ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
