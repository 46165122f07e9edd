package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rows of an append table: one store whose keys are the join key followed by a counter, so every row
 * is kept, duplicates included. Append tables only grow; a change that is not an insert is refused.
 */
final class AppendRows implements CachedRows {
    private final KeyValueStore rows;
    private final RowCodec joinKey;
    private final RowCodec value;
    private final String tableName;
    private final AtomicLong counter = new AtomicLong();

    AppendRows(KeyValueStore rows, RowCodec joinKey, RowCodec value, String tableName) {
        this.rows = rows;
        this.joinKey = joinKey;
        this.value = value;
        this.tableName = tableName;
    }

    @Override
    public void load(InternalRow row) {
        if (!joinKey.anyNull(row)) {
            rows.put(KeyBytes.concat(joinKey.encode(row), counter.getAndIncrement()), value.encode(row));
        }
    }

    @Override
    public void apply(InternalRow change, boolean matches) {
        if (change.rowKind() != RowKind.INSERT && change.rowKind() != RowKind.UPDATE_AFTER) {
            throw new IllegalStateException("Cannot refresh the lookup cache of append table " + tableName
                    + ": it read a " + change.rowKind() + " change, but an append table holds only inserts");
        }
        if (matches) {
            load(change);
        }
    }

    @Override
    public List<byte[]> lookup(byte[] key) {
        List<byte[]> out = new ArrayList<>(2);
        rows.scanPrefix(key, (k, v) -> out.add(v));
        return out;
    }
}
