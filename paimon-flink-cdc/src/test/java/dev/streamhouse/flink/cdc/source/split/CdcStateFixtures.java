package dev.streamhouse.flink.cdc.source.split;

import dev.streamhouse.flink.cdc.debezium.BinlogStart;
import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import dev.streamhouse.flink.cdc.mysql.snapshot.TestTables;
import dev.streamhouse.flink.cdc.source.enumerator.ChunkAssignmentState;
import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumeratorState;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fixed values of the CDC source's golden files ({@code golden/README.md}); never change them,
 * add new ones for new files.
 */
public final class CdcStateFixtures {
    public static final String OFFSET = "{\"file\":\"mysql-bin.000042\",\"pos\":4711,\"gtids\":\"0-1-17\",\"row\":1}";
    public static final List<String> HISTORY = List.of(
            "{\"source\":{\"server\":\"mysql\"},\"ddl\":\"CREATE TABLE `bestellungen_ü` (`id` BIGINT)\"}",
            "{\"source\":{\"server\":\"mysql\"},\"ddl\":\"ALTER TABLE `bestellungen_ü` COMMENT '✓'\"}");

    private CdcStateFixtures() {}

    /**
     * {@code shop.bestellungen_ü} at schema version 3: a two-column key, unsigned and scaled types, a
     * NOT NULL column, comments (one non-ASCII), charsets and an enum's members.
     */
    public static CapturedTable orders() {
        CdcSchema schema = new CdcSchema(new CdcTableId("shop", "bestellungen_ü"), List.of(
                new CdcColumn("id", new MySqlType("BIGINT", true, 20, -1), false, "Schlüssel"),
                new CdcColumn("created", new MySqlType("DATETIME", false, 6, -1), false, null),
                new CdcColumn("name", new MySqlType("VARCHAR", false, 40, -1), true, null),
                new CdcColumn("amount", new MySqlType("DECIMAL", false, 10, 2), true, "in €"),
                new CdcColumn("state", new MySqlType("ENUM", false, -1, -1), true, null)),
                List.of("id", "created"), 3);
        return new CapturedTable(schema, List.of(
                new CapturedTable.ColumnEncoding(null, null, List.of()),
                new CapturedTable.ColumnEncoding(null, null, List.of()),
                new CapturedTable.ColumnEncoding("utf8mb4", "utf8mb4_0900_ai_ci", List.of()),
                new CapturedTable.ColumnEncoding(null, null, List.of()),
                new CapturedTable.ColumnEncoding("utf8mb4", "utf8mb4_general_ci",
                        List.of("neu", "bezahlt", "storniert ✓"))));
    }

    /** A version 1 binlog split: an offset, two history records (non-ASCII), a skip-before time. */
    public static MySqlBinlogSplit binlogSplitV1() {
        return new MySqlBinlogSplit(OFFSET, HISTORY, false, 1_700_000_000_123L);
    }

    /** A binlog split after a chunked snapshot: its window of orders' finished chunks and keyValue("t")'s. */
    public static MySqlBinlogSplit binlogSplitWithWindow() {
        CapturedTable orders = orders();
        CapturedTable t = TestTables.keyValue("t");
        Map<CdcTableId, List<SnapshotWindow.FinishedChunk>> chunks = new LinkedHashMap<>();
        chunks.put(orders.id(), List.of(
                new SnapshotWindow.FinishedChunk(new ChunkRange(null, key(100L)), at("mysql-bin.000041", 500)),
                new SnapshotWindow.FinishedChunk(new ChunkRange(key(100L), null), at("mysql-bin.000042", 300))));
        chunks.put(t.id(), List.of(new SnapshotWindow.FinishedChunk(ChunkRange.all(), at("mysql-bin.000041", 900))));
        return new MySqlBinlogSplit(OFFSET, HISTORY, false, 0, new SnapshotWindow(List.of(orders, t), chunks));
    }

    /** A chunk split of orders between two composite keys, emitted. */
    public static MySqlChunkSplit chunkSplit() {
        return new MySqlChunkSplit(orders(), 3, new ChunkRange(key(100L), key(200L)), at("mysql-bin.000042", 4711));
    }

    /**
     * Chunk splits whose bounds hold every key value type of the state codec (a null too), one
     * not emitted yet.
     */
    public static List<MySqlChunkSplit> chunksOfEveryKeyType() {
        CapturedTable t = TestTables.keyValue("t");
        return List.of(
                new MySqlChunkSplit(t, 0, new ChunkRange(null, new Object[] {new BigDecimal("-1.50"), 2.5d}), null),
                new MySqlChunkSplit(t, 1, new ChunkRange(new Object[] {1.25f, "é😀"},
                        new Object[] {new byte[] {0, (byte) 0xff}, true}), at("mysql-bin.000041", 77)),
                new MySqlChunkSplit(t, 2, new ChunkRange(new Object[] {LocalDate.of(-4, 2, 29),
                        Instant.parse("1970-01-01T00:00:00.123456Z")}, new Object[] {Duration.ofSeconds(-3020399), null}),
                        at("mysql-bin.000042", 4)));
    }

    /** A chunked snapshot's enumerator state: two tables, chunks unassigned, assigned to two subtasks, finished. */
    public static ChunkAssignmentState chunkAssignments() {
        CapturedTable orders = orders();
        CapturedTable t = TestTables.keyValue("t");
        List<MySqlChunkSplit> typed = chunksOfEveryKeyType();
        Map<Integer, List<MySqlChunkSplit>> assigned = new LinkedHashMap<>();
        assigned.put(1, List.of(typed.get(1)));
        assigned.put(0, List.of(chunkSplit(), typed.get(2)));
        return new ChunkAssignmentState(List.of(orders, t), List.of(t.id()), List.of(typed.get(0)), assigned,
                List.of(new MySqlChunkSplit(orders, 0, new ChunkRange(null, key(100L)), at("mysql-bin.000041", 500))),
                false);
    }

    /** The state of golden file {@code mysql-enumerator-state-v1.hex}. */
    public static MySqlCdcEnumeratorState enumeratorStateV1() {
        return new MySqlCdcEnumeratorState(binlogSplitV1(), true, false);
    }

    /** The state of golden file {@code mysql-enumerator-state-v2.hex}: chunk assignments, no binlog start. */
    public static MySqlCdcEnumeratorState enumeratorStateV2() {
        return new MySqlCdcEnumeratorState(null, true, false, chunkAssignments(), null);
    }

    /** The state of golden file {@code mysql-enumerator-state-v3.hex}: the v2 state and where the binlog starts. */
    public static MySqlCdcEnumeratorState enumeratorStateV3() {
        return new MySqlCdcEnumeratorState(null, true, false, chunkAssignments(), new BinlogStart(OFFSET, HISTORY));
    }

    /** The state of golden file {@code mysql-enumerator-state-v3-binlog.hex}: snapshot finished, a binlog split left. */
    public static MySqlCdcEnumeratorState enumeratorStateV3WithBinlogSplit() {
        return new MySqlCdcEnumeratorState(binlogSplitWithWindow(), true, true, null, null);
    }

    /**
     * Generator of the version 1 golden files: a binlog split as split serializer version 1 wrote it
     * (commit 341e163, {@code MySqlBinlogSplitSerializer}), frozen here so that the golden bytes do not
     * come from today's code: offset flag and UTF-8 with an int length, the history count and records,
     * the snapshot-pending flag, skip-before millis. Runs only to create a missing golden file.
     */
    public static byte[] frozenVersion1Split(MySqlBinlogSplit split) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeBoolean(split.offsetJson() != null);
                if (split.offsetJson() != null) {
                    frozenString(out, split.offsetJson());
                }
                out.writeInt(split.history().size());
                for (String record : split.history()) {
                    frozenString(out, record);
                }
                out.writeBoolean(split.snapshotPending());
                out.writeLong(split.skipBeforeMillis());
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Generator of {@code mysql-enumerator-state-v1.hex}: enumerator state version 1 (commit 341e163):
     * created and snapshot-finished flags, then the unassigned split (flag, split version 1, length,
     * bytes). Runs only to create a missing golden file.
     */
    public static byte[] frozenVersion1EnumeratorState(MySqlCdcEnumeratorState state) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeBoolean(state.created());
                out.writeBoolean(state.snapshotFinished());
                out.writeBoolean(state.unassigned() != null);
                if (state.unassigned() != null) {
                    byte[] split = frozenVersion1Split(state.unassigned());
                    out.writeInt(1);
                    out.writeInt(split.length);
                    out.write(split);
                }
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void frozenString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static Object[] key(long id) {
        return new Object[] {id, LocalDateTime.parse("2024-01-01T12:00:00.000001")};
    }

    private static BinlogPosition at(String file, long position) {
        return new BinlogPosition(file, position);
    }
}
