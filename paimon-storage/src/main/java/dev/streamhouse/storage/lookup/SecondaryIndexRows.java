package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows of a primary-key table joined on other columns (or on part of the key): a store from the
 * primary key to the row, and an index store whose keys are the join key followed by the primary key
 * (values empty). A lookup visits the index entries with the join key as prefix and reads their rows.
 * A change first removes the index entry of the key's current row, whose join key may differ.
 */
final class SecondaryIndexRows implements CachedRows {
    private static final byte[] EMPTY = new byte[0];

    private final KeyValueStore rows;
    private final KeyValueStore index;
    private final RowCodec primaryKey;
    private final RowCodec joinKey;
    private final RowCodec value;
    private final VersionRule versions;

    SecondaryIndexRows(KeyValueStore rows, KeyValueStore index, RowCodec primaryKey, RowCodec joinKey, RowCodec value,
            VersionRule versions) {
        this.rows = rows;
        this.index = index;
        this.primaryKey = primaryKey;
        this.joinKey = joinKey;
        this.value = value;
        this.versions = versions;
    }

    @Override
    public void load(InternalRow row) {
        byte[] pk = primaryKey.encode(row);
        rows.put(pk, value.encode(row));
        if (!joinKey.anyNull(row)) {
            index.put(KeyBytes.concat(joinKey.encode(row), pk), EMPTY);
        }
    }

    @Override
    public void apply(InternalRow change, boolean matches) {
        RowKind kind = change.rowKind();
        if (kind == RowKind.UPDATE_BEFORE) {
            return;
        }
        byte[] pk = primaryKey.encode(change);
        byte[] stored = rows.get(pk);
        InternalRow current = stored == null ? null : value.decode(stored);
        boolean remove = kind == RowKind.DELETE || !matches;
        if (current != null && !(remove ? versions.removes(current, change) : versions.replaces(current, change))) {
            return;
        }
        byte[] newJoin = remove || joinKey.anyNull(change) ? null : joinKey.encode(change);
        if (current != null && !joinKey.anyNull(current)) {
            byte[] oldJoin = joinKey.encode(current);
            if (newJoin == null || !Arrays.equals(oldJoin, newJoin)) {
                index.delete(KeyBytes.concat(oldJoin, pk));
            }
        }
        if (remove) {
            if (current != null) {
                rows.delete(pk);
            }
            return;
        }
        rows.put(pk, value.encode(change));
        if (newJoin != null) {
            index.put(KeyBytes.concat(newJoin, pk), EMPTY);
        }
    }

    @Override
    public List<byte[]> lookup(byte[] key) {
        List<byte[]> out = new ArrayList<>(2);
        index.scanPrefix(key, (entry, ignored) -> {
            byte[] pk = Arrays.copyOfRange(entry, key.length, entry.length);
            byte[] row = rows.get(pk);
            if (row != null) {
                out.add(row);
            }
        });
        return out;
    }
}
