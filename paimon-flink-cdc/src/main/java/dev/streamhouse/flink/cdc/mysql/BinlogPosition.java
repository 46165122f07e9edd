package dev.streamhouse.flink.cdc.mysql;

import java.io.Serializable;
import java.util.Objects;

/**
 * A place in the server's binlog that can be compared: a file and a byte position in it, nothing
 * else. Positions order by the file's sequence number (the suffix after the last dot,
 * {@code binlog.000012}) and then by position, so they compare across file rotations. The positions
 * the server reports as its end ({@code SHOW MASTER STATUS}) fall between transactions: every event
 * of a transaction is before such a position or none is. Chunk watermarks and the positions of
 * changes are BinlogPositions; where a binlog reader starts, with the GTID set it may need, is a
 * {@link BinlogStartOffset}; the server is asked for both by {@link ServerBinlog}.
 */
public final class BinlogPosition implements Comparable<BinlogPosition>, Serializable {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long position;
    private final long fileNumber;

    public BinlogPosition(String file, long position) {
        this.file = Objects.requireNonNull(file, "file");
        this.position = position;
        this.fileNumber = fileNumber(file);
    }

    public String file() {
        return file;
    }

    public long position() {
        return position;
    }

    /** True when this position comes before {@code other}. */
    public boolean isBefore(BinlogPosition other) {
        return compareTo(other) < 0;
    }

    public static BinlogPosition min(BinlogPosition a, BinlogPosition b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    public static BinlogPosition max(BinlogPosition a, BinlogPosition b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public int compareTo(BinlogPosition other) {
        int c = Long.compare(fileNumber, other.fileNumber);
        if (c == 0 && fileNumber < 0) {
            c = file.compareTo(other.file);
        }
        return c != 0 ? c : Long.compare(position, other.position);
    }

    /** The file's sequence number; -1 when its name has no numeric suffix (then names compare as text). */
    private static long fileNumber(String file) {
        int dot = file.lastIndexOf('.');
        String suffix = dot < 0 ? "" : file.substring(dot + 1);
        if (suffix.isEmpty() || suffix.length() > 18) {
            return -1;
        }
        for (int i = 0; i < suffix.length(); i++) {
            if (!Character.isDigit(suffix.charAt(i))) {
                return -1;
            }
        }
        return Long.parseLong(suffix);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BinlogPosition other && position == other.position && file.equals(other.file);
    }

    @Override
    public int hashCode() {
        return file.hashCode() * 31 + Long.hashCode(position);
    }

    @Override
    public String toString() {
        return file + ":" + position;
    }
}
