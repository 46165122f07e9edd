package dev.streamhouse.flink.catalog;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.WatermarkSpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table's {@code WATERMARK FOR} clause, kept in the table options under the keys Flink's descriptor
 * properties (and so Apache Paimon's Flink catalog) use:
 * <pre>
 * schema.watermark.0.rowtime            = the rowtime column
 * schema.watermark.0.strategy.expr      = the watermark expression, as serializable SQL
 * schema.watermark.0.strategy.data-type = the expression's type, e.g. TIMESTAMP(3)
 * </pre>
 * The table format has no schema field for watermarks, so they travel as options: engines that do not
 * know them ignore them, and Paimon's Flink catalog rebuilds the same watermark. Flink sees the
 * watermark in the table's schema, never these keys among the options.
 */
public final class WatermarkOptions {
    static final String PREFIX = "schema.watermark.0.";
    static final String ROWTIME = PREFIX + "rowtime";
    static final String EXPR = PREFIX + "strategy.expr";
    static final String DATA_TYPE = PREFIX + "strategy.data-type";
    /** Every key a stored watermark occupies. */
    public static final List<String> KEYS = List.of(ROWTIME, EXPR, DATA_TYPE);

    private WatermarkOptions() {}

    /** The options storing {@code watermark}. */
    public static Map<String, String> toOptions(WatermarkSpec watermark) {
        Map<String, String> out = new HashMap<>();
        out.put(ROWTIME, watermark.getRowtimeAttribute());
        out.put(EXPR, watermark.getWatermarkExpression().asSerializableString());
        out.put(DATA_TYPE, watermark.getWatermarkExpression().getOutputDataType().getLogicalType().asSerializableString());
        return out;
    }

    /** Whether {@code key} is one of the keys a stored watermark occupies. */
    public static boolean isWatermarkKey(String key) {
        return key.startsWith("schema.watermark.");
    }

    /** Removes the watermark keys from {@code options} (a copy); the rest stays. */
    static Map<String, String> withoutWatermark(Map<String, String> options) {
        Map<String, String> out = new HashMap<>(options);
        out.keySet().removeIf(WatermarkOptions::isWatermarkKey);
        return out;
    }

    /**
     * Adds the stored watermark, if any, to a Flink schema being built.
     *
     * @throws IllegalArgumentException if only part of a watermark is stored, naming the missing key
     */
    static void addTo(Schema.Builder builder, Map<String, String> options, String tableName) {
        Optional<String> rowtime = Optional.ofNullable(options.get(ROWTIME));
        String expr = options.get(EXPR);
        if (rowtime.isEmpty() && expr == null) {
            return;
        }
        if (rowtime.isEmpty() || expr == null) {
            throw new IllegalArgumentException("Table " + tableName + " has an incomplete watermark: option '"
                    + (rowtime.isEmpty() ? ROWTIME : EXPR) + "' is missing; set it with ALTER TABLE ... SET, or "
                    + "remove the other 'schema.watermark.0.*' options");
        }
        builder.watermark(rowtime.get(), expr);
    }
}
