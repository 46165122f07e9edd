package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.casting.ColumnCast;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How to read KeyValues from the data files of one schema version. Columns are matched by field id
 * (like append reads): a renamed column is read by its old name, a column added later reads as NULL,
 * a value column widened by ALTER TABLE is read in its written type and converted ({@link ColumnCast}).
 * The key comes from the {@code _KEY_<old name>} columns, or, for files written in
 * {@code data-file.thin-mode} (no {@code _KEY_*} columns), from the value columns with the key's ids.
 */
final class KeyValueReadPlan {
    /** The option with which Paimon writes files without {@code _KEY_*} columns. */
    static final String THIN_MODE_OPTION = "data-file.thin-mode";

    /** Columns to ask the file for (file names); columns the file lacks get an absent name. */
    final RowType fileReadType;
    /** Positions in the read row of the key fields, in key order. */
    final int[] keyPositions;
    final int sequencePosition;
    final int valueKindPosition;
    /** Positions in the read row of the projected value fields, in projection order. */
    final int[] valuePositions;
    /** Whether keys come from {@code _KEY_*} columns (which must then never be NULL). */
    final boolean keyColumns;
    /** The key filter in read-row positions, or null. */
    final Predicate fileFilter;
    /** Per read position, the cast of a value column whose type was widened, else null. */
    final ColumnCast[] casts;

    private KeyValueReadPlan(RowType fileReadType, int[] keyPositions, int sequencePosition, int valueKindPosition,
            int[] valuePositions, boolean keyColumns, Predicate fileFilter, ColumnCast[] casts) {
        this.fileReadType = fileReadType;
        this.keyPositions = keyPositions;
        this.sequencePosition = sequencePosition;
        this.valueKindPosition = valueKindPosition;
        this.valuePositions = valuePositions;
        this.keyColumns = keyColumns;
        this.fileFilter = fileFilter;
        this.casts = casts;
    }

    /**
     * @param current the layout of the schema being read (key and value types with field ids)
     * @param valueProjection positions of the value fields to read, in {@code current.valueType()}
     * @param keyFilter a predicate over key positions, or null
     * @param fileName the file being opened, and {@code tableName}, for error messages
     */
    static KeyValueReadPlan of(KeyValueLayout current, int[] valueProjection, TableSchema fileSchema,
            Predicate keyFilter, String fileName, String tableName) {
        Map<Integer, DataField> fileFields = new HashMap<>();
        for (DataField f : fileSchema.fields()) {
            fileFields.put(f.id(), f);
        }
        boolean thin = Boolean.parseBoolean(fileSchema.options().get(THIN_MODE_OPTION));
        List<DataField> read = new ArrayList<>();
        RowType keyType = current.keyType();
        int[] keyPositions = new int[keyType.fieldCount()];
        if (!thin) {
            for (int i = 0; i < keyPositions.length; i++) {
                DataField k = keyType.field(i);
                DataField inFile = requireKeyField(fileFields, k, fileSchema, fileName, tableName);
                keyPositions[i] = read.size();
                read.add(new DataField(KeyValueLayout.KEY_FIELD_ID_START + k.id(),
                        KeyValueLayout.KEY_PREFIX + inFile.name(), k.type().nullable()));
            }
        }
        int sequencePosition = read.size();
        read.add(new DataField(KeyValueLayout.SEQUENCE_NUMBER_FIELD_ID, KeyValueLayout.SEQUENCE_NUMBER,
                DataTypes.BIGINT()));
        int valueKindPosition = read.size();
        read.add(new DataField(KeyValueLayout.VALUE_KIND_FIELD_ID, KeyValueLayout.VALUE_KIND, DataTypes.TINYINT()));
        RowType valueType = current.valueType();
        int[] valuePositions = new int[valueProjection.length];
        Map<Integer, ColumnCast> castsByPosition = new HashMap<>();
        for (int i = 0; i < valueProjection.length; i++) {
            DataField wanted = valueType.field(valueProjection[i]);
            DataField inFile = fileFields.get(wanted.id());
            valuePositions[i] = read.size();
            if (inFile != null && !inFile.type().equalsIgnoreNullable(wanted.type())) {
                ColumnCast cast = castOf(wanted, inFile, fileSchema, fileName, tableName);
                castsByPosition.put(read.size(), cast);
                read.add(new DataField(wanted.id(), inFile.name(), cast.fileReadType()));
            } else {
                read.add(valueColumn(wanted, inFile, fileSchema, fileName, tableName));
            }
        }
        if (thin) {
            for (int i = 0; i < keyPositions.length; i++) {
                DataField k = keyType.field(i);
                int projected = positionOfId(read, k.id());
                if (projected >= 0) {
                    keyPositions[i] = projected;
                } else {
                    DataField inFile = requireKeyField(fileFields, k, fileSchema, fileName, tableName);
                    keyPositions[i] = read.size();
                    read.add(new DataField(k.id(), inFile.name(), k.type().nullable()));
                }
            }
        }
        Predicate fileFilter = keyFilter == null
                ? null
                : PredicateBuilder.transformFieldMapping(keyFilter, keyPositions).orElse(null);
        ColumnCast[] casts = new ColumnCast[read.size()];
        castsByPosition.forEach((pos, cast) -> casts[pos] = cast);
        return new KeyValueReadPlan(new RowType(read), keyPositions, sequencePosition, valueKindPosition,
                valuePositions, !thin, fileFilter, casts);
    }

    private static int positionOfId(List<DataField> read, int id) {
        for (int p = 0; p < read.size(); p++) {
            if (read.get(p).id() == id) {
                return p;
            }
        }
        return -1;
    }

    private static DataField requireKeyField(Map<Integer, DataField> fileFields, DataField key,
            TableSchema fileSchema, String fileName, String tableName) {
        DataField inFile = fileFields.get(key.id());
        if (inFile == null) {
            throw new IllegalStateException("Cannot read data file " + fileName + " of table " + tableName
                    + ": its schema " + fileSchema.id() + " has no field with id " + key.id()
                    + " for primary key column '" + key.name()
                    + "'; primary keys cannot change, so the schema files are inconsistent");
        }
        checkSameType(key, inFile, fileSchema, fileName, tableName);
        return inFile;
    }

    private static DataField valueColumn(DataField wanted, DataField inFile, TableSchema fileSchema,
            String fileName, String tableName) {
        if (inFile == null) {
            // Added after this file was written: ask for a name no column can have, which reads as NULL.
            return new DataField(wanted.id(), "__absent_field_" + wanted.id() + "__", wanted.type().nullable());
        }
        checkSameType(wanted, inFile, fileSchema, fileName, tableName);
        return new DataField(wanted.id(), inFile.name(), wanted.type().nullable());
    }

    /** Value columns may have been widened by ALTER TABLE (key columns never change type). */
    private static ColumnCast castOf(DataField wanted, DataField inFile, TableSchema fileSchema, String fileName,
            String tableName) {
        try {
            return ColumnCast.of(inFile.type(), wanted.type());
        } catch (IllegalArgumentException e) {
            throw new UnsupportedOperationException("Cannot read column '" + wanted.name() + "' of table "
                    + tableName + " from data file " + fileName + " (schema " + fileSchema.id() + "): it was written as "
                    + inFile.type() + " and is now " + wanted.type() + ", and " + e.getMessage(), e);
        }
    }

    private static void checkSameType(DataField wanted, DataField inFile, TableSchema fileSchema, String fileName,
            String tableName) {
        if (!inFile.type().equalsIgnoreNullable(wanted.type())) {
            throw new UnsupportedOperationException("Cannot read column '" + wanted.name() + "' of table "
                    + tableName + " from data file " + fileName + " (schema " + fileSchema.id() + "): it was written as "
                    + inFile.type() + " and is now " + wanted.type()
                    + "; the type of a primary key column cannot change");
        }
    }
}
