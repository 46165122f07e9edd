package dev.streamhouse.storage.mergetree;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.schema.SystemFields;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.PlainType;
import dev.streamhouse.storage.types.RowType;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The layout of primary-key table data files (docs/format.md §8.2): {@code _KEY_<k>} for each trimmed
 * primary-key column, {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, then all table columns.
 */
public final class KeyValueLayout implements Serializable {
    private static final long serialVersionUID = 1L;


    private final RowType keyType;
    private final RowType valueType;
    private final RowType fileType;
    private final int[] keyPositionsInValue;

    public KeyValueLayout(RowType keyType, RowType valueType) {
        this.keyType = keyType;
        this.valueType = valueType;
        List<DataField> file = new ArrayList<>();
        for (DataField k : keyType.fields()) {
            file.add(new DataField(SystemFields.KEY_FIELD_ID_START + k.id(), SystemFields.KEY_PREFIX + k.name(),
                    k.type().notNull()));
        }
        file.add(new DataField(SystemFields.SEQUENCE_NUMBER_FIELD_ID, SystemFields.SEQUENCE_NUMBER,
                DataTypes.BIGINT().notNull()));
        file.add(new DataField(SystemFields.VALUE_KIND_FIELD_ID, SystemFields.VALUE_KIND,
                new PlainType(false, DataTypeRoot.TINYINT)));
        file.addAll(valueType.fields());
        this.fileType = new RowType(file);
        this.keyPositionsInValue = new int[keyType.fieldCount()];
        for (int i = 0; i < keyPositionsInValue.length; i++) {
            keyPositionsInValue[i] = valueType.requireFieldIndex(keyType.field(i).name());
        }
    }

    /** The layout of a primary-key table's schema: key = trimmed primary key, value = all columns. */
    public static KeyValueLayout of(TableSchema schema) {
        RowType value = schema.rowType();
        List<DataField> key = new ArrayList<>();
        for (String k : schema.trimmedPrimaryKeys()) {
            DataField f = value.field(value.requireFieldIndex(k));
            key.add(f.withType(f.type().notNull()));
        }
        return new KeyValueLayout(new RowType(key), value);
    }

    /** The trimmed primary key columns (NOT NULL), with the table's field ids. */
    public RowType keyType() {
        return keyType;
    }

    /** All table columns. */
    public RowType valueType() {
        return valueType;
    }

    /** The data file columns: {@code _KEY_*}, {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, values. */
    public RowType fileType() {
        return fileType;
    }

    public int keyArity() {
        return keyType.fieldCount();
    }

    /** Position of {@code _SEQUENCE_NUMBER} in the file row. */
    public int sequencePosition() {
        return keyType.fieldCount();
    }

    /** Position of {@code _VALUE_KIND} in the file row. */
    public int valueKindPosition() {
        return keyType.fieldCount() + 1;
    }

    /** Position of the first value column in the file row. */
    public int valueOffset() {
        return keyType.fieldCount() + 2;
    }

    /** Positions of the key columns within the value row. */
    public int[] keyPositionsInValue() {
        return keyPositionsInValue.clone();
    }

    /** Reads a file row as a KeyValue (views, not copies) into {@code reuse}. */
    public KeyValue fromFileRow(InternalRow fileRow, KeyValue reuse, FileRowViews views) {
        return reuse.replace(views.key.replace(fileRow), fileRow.longAt(sequencePosition()),
                dev.streamhouse.storage.data.RowKind.fromByteValue(fileRow.byteAt(valueKindPosition())),
                views.value.replace(fileRow));
    }

    /** Reusable projections of a file row onto its key and value parts. */
    public FileRowViews newViews() {
        return new FileRowViews(this);
    }

    /** Reusable key and value views of file rows. */
    public static final class FileRowViews {
        final dev.streamhouse.storage.data.ProjectedRow key;
        final dev.streamhouse.storage.data.ProjectedRow value;

        FileRowViews(KeyValueLayout layout) {
            int[] k = new int[layout.keyArity()];
            for (int i = 0; i < k.length; i++) {
                k[i] = i;
            }
            int[] v = new int[layout.valueType.fieldCount()];
            for (int i = 0; i < v.length; i++) {
                v[i] = layout.valueOffset() + i;
            }
            this.key = new dev.streamhouse.storage.data.ProjectedRow(k);
            this.value = new dev.streamhouse.storage.data.ProjectedRow(v);
        }
    }
}
