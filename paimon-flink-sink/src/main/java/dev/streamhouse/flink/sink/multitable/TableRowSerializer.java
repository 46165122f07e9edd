package dev.streamhouse.flink.sink.multitable;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Flink's serializer of {@link TableRow}s between tasks: the table name (UTF), the schema id, the
 * routing fields, then the row bytes with their length. Rows are immutable, so copies are the rows.
 */
public final class TableRowSerializer extends TypeSerializerSingleton<TableRow> {
    private static final long serialVersionUID = 1L;

    public static final TableRowSerializer INSTANCE = new TableRowSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TableRow createInstance() {
        return null;
    }

    @Override
    public TableRow copy(TableRow from) {
        return from;
    }

    @Override
    public TableRow copy(TableRow from, TableRow reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(TableRow r, DataOutputView out) throws IOException {
        out.writeUTF(r.table());
        out.writeLong(r.schemaId());
        out.writeInt(r.partitionHash());
        out.writeInt(r.bucketOrKeyHash());
        out.writeBoolean(r.dynamicBucket());
        out.writeInt(r.row().length);
        out.write(r.row());
    }

    @Override
    public TableRow deserialize(DataInputView in) throws IOException {
        String table = in.readUTF();
        long schemaId = in.readLong();
        int partitionHash = in.readInt();
        int routing = in.readInt();
        boolean dynamic = in.readBoolean();
        int length = in.readInt();
        if (length < 0) {
            throw new IOException("Corrupt row of table " + table + ": length " + length);
        }
        byte[] row = new byte[length];
        in.readFully(row);
        return new TableRow(table, schemaId, row, partitionHash, routing, dynamic);
    }

    @Override
    public TableRow deserialize(TableRow reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    @Override
    public TypeSerializerSnapshot<TableRow> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer's snapshot; it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<TableRow> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
