package dev.streamhouse.flink.cdc.source;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.Collector;

/**
 * Test deserializer for tables keyed by their first column, values without commas or spaces: each row change as one line, {@code <S|B> <op>
 * <before> <after>} with rows as comma-separated values and {@code -} for a missing image, e.g.
 * {@code S +I - 5,1,2} (a snapshot row) or {@code B U 5,1,2 5,3,4} (a binlog update). {@link #replay}
 * rebuilds the table from such lines and reports every change that does not fit the state.
 */
public final class ChangeLines implements CdcDeserializer<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(CdcEvent event, Collector<String> out) {
        if (event instanceof CdcRecord r) {
            String op = switch (r.op()) {
                case INSERT -> "+I";
                case UPDATE -> "U";
                case DELETE -> "-D";
            };
            out.collect((r.snapshot() ? "S " : "B ") + op + " " + row(r.before()) + " " + row(r.after()));
        }
    }

    private static String row(Object[] values) {
        if (values == null) {
            return "-";
        }
        StringBuilder s = new StringBuilder();
        for (Object v : values) {
            s.append(s.length() == 0 ? "" : ",").append(v);
        }
        return s.toString();
    }

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    /**
     * The table the lines build, by id, applying them in order; every insert of a present key,
     * update or delete of an absent key or with a before image that differs from the state is added
     * to {@code problems}.
     */
    public static Map<String, String> replay(List<String> lines, List<String> problems) {
        Map<String, String> state = new HashMap<>();
        for (String line : lines) {
            String[] p = line.split(" ");
            String op = p[1];
            String before = p[2];
            String after = p[3];
            if (op.equals("+I")) {
                String previous = state.put(id(after), after);
                if (previous != null) {
                    problems.add("insert of present key: " + line + " (state " + previous + ")");
                }
            } else {
                String current = state.get(id(before));
                if (!before.equals(current)) {
                    problems.add("change whose before image is not the state: " + line + " (state " + current + ")");
                }
                state.remove(id(before));
                if (op.equals("U")) {
                    state.put(id(after), after);
                }
            }
        }
        return state;
    }

    /** The snapshot lines first (their order does not matter), then the binlog lines in order. */
    public static List<String> snapshotThenBinlog(List<String> lines) {
        List<String> out = new ArrayList<>();
        lines.stream().filter(l -> l.startsWith("S ")).forEach(out::add);
        lines.stream().filter(l -> l.startsWith("B ")).forEach(out::add);
        return out;
    }

    /** The first value of a row: its key. */
    private static String id(String row) {
        int comma = row.indexOf(',');
        return comma < 0 ? row : row.substring(0, comma);
    }
}
