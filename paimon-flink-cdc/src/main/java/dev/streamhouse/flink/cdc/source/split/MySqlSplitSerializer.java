package dev.streamhouse.flink.cdc.source.split;

import static dev.streamhouse.flink.cdc.source.split.StateCodec.readNullableString;
import static dev.streamhouse.flink.cdc.source.split.StateCodec.readString;
import static dev.streamhouse.flink.cdc.source.split.StateCodec.writeNullableString;
import static dev.streamhouse.flink.cdc.source.split.StateCodec.writeString;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The source's splits in checkpoints and RPC.
 *
 * <p>Version 2: a kind byte. Binlog split (0): the version 1 fields, then the snapshot window (flag;
 * table count, each table ({@link StateCodec#writeTable}) with its chunk count and chunks (range,
 * high watermark)). Chunk split (1): the table, the chunk number, the range, the high watermark
 * (flag, then file and position).
 *
 * <p>Version 1 (binlog splits only): offset (flag, then UTF-8 bytes with an int length), the
 * history records (count, then each as UTF-8 bytes with an int length), the snapshot-pending flag
 * and skip-before millis.
 */
public final class MySqlSplitSerializer implements SimpleVersionedSerializer<MySqlSplit> {

    public static final MySqlSplitSerializer INSTANCE = new MySqlSplitSerializer();
    private static final int VERSION = 2;
    private static final byte BINLOG = 0;
    private static final byte CHUNK = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(MySqlSplit split) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(out, split);
        }
        return bytes.toByteArray();
    }

    @Override
    public MySqlSplit deserialize(int version, byte[] serialized) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            if (version == 1) {
                return readBinlogFields(in, false);
            }
            if (version != VERSION) {
                throw new IOException("Cannot read a MySQL CDC split of serializer version " + version
                        + "; this build reads versions 1 and " + VERSION);
            }
            return read(in);
        }
    }

    static void write(DataOutputStream out, MySqlSplit split) throws IOException {
        if (split instanceof MySqlChunkSplit chunk) {
            out.writeByte(CHUNK);
            StateCodec.writeTable(out, chunk.table());
            out.writeInt(chunk.index());
            StateCodec.writeRange(out, chunk.range());
            StateCodec.writePosition(out, chunk.highWatermark());
            return;
        }
        MySqlBinlogSplit binlog = (MySqlBinlogSplit) split;
        out.writeByte(BINLOG);
        writeNullableString(out, binlog.offsetJson());
        out.writeInt(binlog.history().size());
        for (String record : binlog.history()) {
            writeString(out, record);
        }
        out.writeBoolean(binlog.snapshotPending());
        out.writeLong(binlog.skipBeforeMillis());
        SnapshotWindow window = binlog.window();
        out.writeBoolean(window != null);
        if (window != null) {
            out.writeInt(window.tables().size());
            for (CapturedTable table : window.tables()) {
                StateCodec.writeTable(out, table);
                List<SnapshotWindow.FinishedChunk> chunks = window.chunks().get(table.id());
                out.writeInt(chunks.size());
                for (SnapshotWindow.FinishedChunk chunk : chunks) {
                    StateCodec.writeRange(out, chunk.range());
                    StateCodec.writePosition(out, chunk.highWatermark());
                }
            }
        }
    }

    static MySqlSplit read(DataInputStream in) throws IOException {
        byte kind = in.readByte();
        if (kind == CHUNK) {
            CapturedTable table = StateCodec.readTable(in);
            return new MySqlChunkSplit(table, in.readInt(), StateCodec.readRange(in), StateCodec.readPosition(in));
        }
        if (kind != BINLOG) {
            throw new IOException("Cannot read a MySQL CDC split of kind " + kind);
        }
        return readBinlogFields(in, true);
    }

    private static MySqlBinlogSplit readBinlogFields(DataInputStream in, boolean withWindow) throws IOException {
        String offset = readNullableString(in);
        int count = in.readInt();
        List<String> history = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            history.add(readString(in));
        }
        boolean snapshotPending = in.readBoolean();
        long skipBefore = in.readLong();
        SnapshotWindow window = null;
        if (withWindow && in.readBoolean()) {
            int tableCount = in.readInt();
            List<CapturedTable> tables = new ArrayList<>(tableCount);
            Map<CdcTableId, List<SnapshotWindow.FinishedChunk>> chunks = new LinkedHashMap<>();
            for (int t = 0; t < tableCount; t++) {
                CapturedTable table = StateCodec.readTable(in);
                tables.add(table);
                int chunkCount = in.readInt();
                List<SnapshotWindow.FinishedChunk> list = new ArrayList<>(chunkCount);
                for (int c = 0; c < chunkCount; c++) {
                    list.add(new SnapshotWindow.FinishedChunk(StateCodec.readRange(in), StateCodec.readPosition(in)));
                }
                chunks.put(table.id(), list);
            }
            window = new SnapshotWindow(tables, chunks);
        }
        return new MySqlBinlogSplit(offset, history, snapshotPending, skipBefore, window);
    }
}
