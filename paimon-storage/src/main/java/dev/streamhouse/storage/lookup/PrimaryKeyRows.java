package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;

import java.util.List;

/**
 * Rows of a primary-key table joined on its whole primary key: one store from the key (encoded in
 * join-key order) to the row.
 */
final class PrimaryKeyRows implements CachedRows {
    private final KeyValueStore rows;
    private final RowCodec key;
    private final RowCodec value;
    private final VersionRule versions;

    PrimaryKeyRows(KeyValueStore rows, RowCodec key, RowCodec value, VersionRule versions) {
        this.rows = rows;
        this.key = key;
        this.value = value;
        this.versions = versions;
    }

    @Override
    public void load(InternalRow row) {
        rows.put(key.encode(row), value.encode(row));
    }

    @Override
    public void apply(InternalRow change, boolean matches) {
        RowKind kind = change.rowKind();
        if (kind == RowKind.UPDATE_BEFORE) {
            return; // the +U that follows replaces the row
        }
        byte[] k = key.encode(change);
        InternalRow current = null;
        if (versions.needsCurrent()) {
            byte[] stored = rows.get(k);
            current = stored == null ? null : value.decode(stored);
        }
        if (kind == RowKind.DELETE || !matches) {
            if (current == null || versions.removes(current, change)) {
                rows.delete(k);
            }
            return;
        }
        if (current == null || versions.replaces(current, change)) {
            rows.put(k, value.encode(change));
        }
    }

    @Override
    public List<byte[]> lookup(byte[] joinKey) {
        byte[] row = rows.get(joinKey);
        return row == null ? List.of() : List.of(row);
    }
}
