package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.read.DataFileReadPlan;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.RowType;

/**
 * Where the parts of a KeyValue are in the rows read from one schema version's primary-key files: a
 * {@link DataFileReadPlan} of the key, {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND} and the projected
 * value columns. Immutable.
 */
final class KeyValueColumns {
    final DataFileReadPlan plan;
    /** Positions in the read row of the key fields, in key order. */
    final int[] keyPositions;
    final int sequencePosition;
    final int valueKindPosition;
    /** Positions in the read row of the projected value fields, in projection order. */
    final int[] valuePositions;

    private KeyValueColumns(DataFileReadPlan plan, int[] keyPositions, int sequencePosition, int valueKindPosition,
            int[] valuePositions) {
        this.plan = plan;
        this.keyPositions = keyPositions;
        this.sequencePosition = sequencePosition;
        this.valueKindPosition = valueKindPosition;
        this.valuePositions = valuePositions;
    }

    /** Whether keys come from {@code _KEY_*} columns (which must then never be NULL). */
    boolean keyColumns() {
        return !plan.thinMode();
    }

    /**
     * @param current the layout of the schema being read (key and value types with field ids)
     * @param valueProjection positions of the value fields to read, in {@code current.valueType()}
     * @param keyFilter a predicate over key positions, or null
     */
    static KeyValueColumns plan(KeyValueLayout current, int[] valueProjection, TableSchema fileSchema,
            Predicate keyFilter, String fileName, String tableName) {
        DataFileReadPlan.Builder builder = DataFileReadPlan.builder(fileSchema, fileName, tableName);
        RowType keyType = current.keyType();
        int[] keyPositions = new int[keyType.fieldCount()];
        if (!builder.thinMode()) {
            for (int i = 0; i < keyPositions.length; i++) {
                keyPositions[i] = builder.keyColumn(keyType.field(i));
            }
        }
        int sequencePosition = builder.sequenceNumber();
        int valueKindPosition = builder.valueKind();
        RowType valueType = current.valueType();
        int[] valuePositions = new int[valueProjection.length];
        for (int i = 0; i < valueProjection.length; i++) {
            valuePositions[i] = builder.column(valueType.field(valueProjection[i]));
        }
        if (builder.thinMode()) {
            // after the values, so that keys among the projected values are read once
            for (int i = 0; i < keyPositions.length; i++) {
                keyPositions[i] = builder.keyColumn(keyType.field(i));
            }
        }
        if (keyFilter != null) {
            builder.filter(keyFilter, keyPositions);
        }
        return new KeyValueColumns(builder.build(), keyPositions, sequencePosition, valueKindPosition, valuePositions);
    }
}
