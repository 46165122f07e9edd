package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.debezium.BinlogStart;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlSplitSerializer;
import dev.streamhouse.flink.cdc.source.split.StateCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Version 3: the version 2 fields, then where the binlog split of a chunked snapshot starts (flag;
 * the Debezium offset as JSON; the number of schema history records, then each record).
 *
 * <p>Version 2: the version 1 fields with the split in {@link MySqlSplitSerializer}'s current version,
 * then the chunk assignments (flag; the tables ({@link StateCodec#writeTable}); the ids of the tables
 * to split (table numbers); the unassigned chunks; per subtask its assigned chunks; the finished
 * chunks; the binlog-assigned flag). A chunk is written as its table's number, its own number, its
 * range and its high watermark, so that a table's schema is in the state once.
 *
 * <p>Version 1: created and snapshot-finished flags, then the unassigned split (flag, split
 * serializer version, bytes).
 */
public final class MySqlCdcEnumeratorStateSerializer implements SimpleVersionedSerializer<MySqlCdcEnumeratorState> {

    private static final int VERSION = 3;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(MySqlCdcEnumeratorState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeBoolean(state.created());
            out.writeBoolean(state.snapshotFinished());
            out.writeBoolean(state.unassigned() != null);
            if (state.unassigned() != null) {
                byte[] split = MySqlSplitSerializer.INSTANCE.serialize(state.unassigned());
                out.writeInt(MySqlSplitSerializer.INSTANCE.getVersion());
                out.writeInt(split.length);
                out.write(split);
            }
            out.writeBoolean(state.chunks() != null);
            if (state.chunks() != null) {
                writeChunks(out, state.chunks());
            }
            out.writeBoolean(state.binlogStart() != null);
            if (state.binlogStart() != null) {
                StateCodec.writeString(out, state.binlogStart().offsetJson());
                out.writeInt(state.binlogStart().history().size());
                for (String record : state.binlogStart().history()) {
                    StateCodec.writeString(out, record);
                }
            }
        }
        return bytes.toByteArray();
    }

    @Override
    public MySqlCdcEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException("Cannot read a MySQL CDC enumerator state of version " + version
                    + "; this build reads versions 1 to " + VERSION);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            boolean created = in.readBoolean();
            boolean snapshotFinished = in.readBoolean();
            MySqlBinlogSplit unassigned = null;
            if (in.readBoolean()) {
                int splitVersion = in.readInt();
                byte[] split = new byte[in.readInt()];
                in.readFully(split);
                unassigned = (MySqlBinlogSplit) MySqlSplitSerializer.INSTANCE.deserialize(splitVersion, split);
            }
            ChunkAssignmentState chunks = version >= 2 && in.readBoolean() ? readChunks(in) : null;
            BinlogStart binlogStart = version >= 3 && in.readBoolean() ? readBinlogStart(in) : null;
            return new MySqlCdcEnumeratorState(unassigned, created, snapshotFinished, chunks, binlogStart);
        }
    }

    private static BinlogStart readBinlogStart(DataInputStream in) throws IOException {
        String offset = StateCodec.readString(in);
        int count = in.readInt();
        List<String> history = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            history.add(StateCodec.readString(in));
        }
        return new BinlogStart(offset, history);
    }

    private static void writeChunks(DataOutputStream out, ChunkAssignmentState state) throws IOException {
        Map<CdcTableId, Integer> numbers = new HashMap<>();
        out.writeInt(state.tables().size());
        for (CapturedTable table : state.tables()) {
            numbers.put(table.id(), numbers.size());
            StateCodec.writeTable(out, table);
        }
        out.writeInt(state.tablesToSplit().size());
        for (CdcTableId id : state.tablesToSplit()) {
            out.writeInt(numbers.get(id));
        }
        writeChunkList(out, state.unassigned(), numbers);
        out.writeInt(state.assigned().size());
        for (Map.Entry<Integer, List<MySqlChunkSplit>> e : state.assigned().entrySet()) {
            out.writeInt(e.getKey());
            writeChunkList(out, e.getValue(), numbers);
        }
        writeChunkList(out, state.finished(), numbers);
        out.writeBoolean(state.binlogAssigned());
    }

    private static ChunkAssignmentState readChunks(DataInputStream in) throws IOException {
        int tableCount = in.readInt();
        List<CapturedTable> tables = new ArrayList<>(tableCount);
        for (int i = 0; i < tableCount; i++) {
            tables.add(StateCodec.readTable(in));
        }
        int toSplitCount = in.readInt();
        List<CdcTableId> toSplit = new ArrayList<>(toSplitCount);
        for (int i = 0; i < toSplitCount; i++) {
            toSplit.add(tables.get(in.readInt()).id());
        }
        List<MySqlChunkSplit> unassigned = readChunkList(in, tables);
        int subtasks = in.readInt();
        Map<Integer, List<MySqlChunkSplit>> assigned = new LinkedHashMap<>();
        for (int i = 0; i < subtasks; i++) {
            int subtask = in.readInt();
            assigned.put(subtask, readChunkList(in, tables));
        }
        List<MySqlChunkSplit> finished = readChunkList(in, tables);
        return new ChunkAssignmentState(tables, toSplit, unassigned, assigned, finished, in.readBoolean());
    }

    private static void writeChunkList(DataOutputStream out, List<MySqlChunkSplit> chunks,
            Map<CdcTableId, Integer> numbers) throws IOException {
        out.writeInt(chunks.size());
        for (MySqlChunkSplit chunk : chunks) {
            out.writeInt(numbers.get(chunk.table().id()));
            out.writeInt(chunk.index());
            StateCodec.writeRange(out, chunk.range());
            StateCodec.writePosition(out, chunk.highWatermark());
        }
    }

    private static List<MySqlChunkSplit> readChunkList(DataInputStream in, List<CapturedTable> tables)
            throws IOException {
        int count = in.readInt();
        List<MySqlChunkSplit> chunks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            CapturedTable table = tables.get(in.readInt());
            chunks.add(new MySqlChunkSplit(table, in.readInt(), StateCodec.readRange(in), StateCodec.readPosition(in)));
        }
        return chunks;
    }
}
