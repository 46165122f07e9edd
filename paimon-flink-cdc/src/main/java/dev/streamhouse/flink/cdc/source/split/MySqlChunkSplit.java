package dev.streamhouse.flink.cdc.source.split;

import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import java.util.Objects;

/**
 * One chunk of a table's snapshot: the table as the enumerator read it (schema and column
 * encodings), the chunk's number within the table and its primary-key range. Once a reader has
 * emitted the chunk's rows it carries their high watermark: the binlog position the rows are as
 * of. A chunk with a high watermark is done; a restored reader reports it instead of reading it.
 */
public final class MySqlChunkSplit implements MySqlSplit {

    private final CapturedTable table;
    private final int index;
    private final ChunkRange range;
    private final BinlogPosition highWatermark;

    public MySqlChunkSplit(CapturedTable table, int index, ChunkRange range, BinlogPosition highWatermark) {
        this.table = Objects.requireNonNull(table, "table");
        this.index = index;
        this.range = Objects.requireNonNull(range, "range");
        this.highWatermark = highWatermark;
    }

    /** {@code `db`.`table`#index}: unique within a source. */
    public static String idOf(CapturedTable table, int index) {
        return "`" + table.id().database().replace("`", "``") + "`.`" + table.id().table().replace("`", "``")
                + "`#" + index;
    }

    @Override
    public String splitId() {
        return idOf(table, index);
    }

    public CapturedTable table() {
        return table;
    }

    public int index() {
        return index;
    }

    public ChunkRange range() {
        return range;
    }

    /** The binlog position the emitted rows are as of; null while the chunk is not emitted. */
    public BinlogPosition highWatermark() {
        return highWatermark;
    }

    public boolean isEmitted() {
        return highWatermark != null;
    }

    public MySqlChunkSplit withHighWatermark(BinlogPosition position) {
        return new MySqlChunkSplit(table, index, range, position);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MySqlChunkSplit other && index == other.index && table.equals(other.table)
                && range.equals(other.range) && Objects.equals(highWatermark, other.highWatermark);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table.id(), index, range, highWatermark);
    }

    @Override
    public String toString() {
        return "MySqlChunkSplit{" + splitId() + " " + range + (highWatermark == null ? "" : " emitted as of " + highWatermark)
                + "}";
    }
}
