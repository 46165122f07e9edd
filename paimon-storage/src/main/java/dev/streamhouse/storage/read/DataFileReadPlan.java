package dev.streamhouse.storage.read;

import dev.streamhouse.storage.casting.ColumnCast;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.SystemFields;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which columns to ask one data file for, and how to present them in the schema being read: the one
 * schema-evolution plan of every read (table columns of append and primary-key files, primary keys and
 * the system columns of primary-key files).
 *
 * <p>Columns are matched by field id against the schema the file was written with
 * ({@link dev.streamhouse.storage.manifest.DataFileMeta#schemaId()}): a renamed column is read by its
 * old name, a column added later (or dropped and re-added under a new id) reads as NULL, and a column
 * whose type was widened by ALTER TABLE is read in its written type and converted ({@link ColumnCast}).
 * Primary keys come from the {@code _KEY_<name in that schema>} columns, or, for files written in
 * {@code data-file.thin-mode} (no {@code _KEY_*} columns, per the file schema's options), from the value
 * columns with the key's ids. A filter only keeps its conjuncts on columns read as written, so row
 * groups are never skipped by statistics of another type or of a column the file lacks.
 *
 * <p>Built with {@link #builder}; each requested column gets the position it has in
 * {@link #fileReadType()} (and in the rows read). Immutable.
 */
public final class DataFileReadPlan {
    /** The option with which Paimon writes files without {@code _KEY_*} columns. */
    public static final String THIN_MODE_OPTION = "data-file.thin-mode";

    private final RowType fileReadType;
    private final ColumnCast[] casts;
    private final Predicate fileFilter;
    private final boolean thinMode;

    private DataFileReadPlan(RowType fileReadType, ColumnCast[] casts, Predicate fileFilter, boolean thinMode) {
        this.fileReadType = fileReadType;
        this.casts = casts;
        this.fileFilter = fileFilter;
        this.thinMode = thinMode;
    }

    /**
     * @param fileSchema the schema the file was written with
     * @param fileName the file, and {@code tableName}, for error messages
     */
    public static Builder builder(TableSchema fileSchema, String fileName, String tableName) {
        return new Builder(fileSchema, fileName, tableName);
    }

    /** The columns to ask the file for (names in the file, written types); absent ones get a name no column has. */
    public RowType fileReadType() {
        return fileReadType;
    }

    /** Per read position, the conversion to the current type, or null when values are read as written. */
    public ColumnCast cast(int position) {
        return casts[position];
    }

    /** Whether some column must be converted after reading. */
    public boolean needsCast() {
        for (ColumnCast c : casts) {
            if (c != null && c.convertsValues()) {
                return true;
            }
        }
        return false;
    }

    /** The filter over read positions that may skip row groups and pages of this file, or null. */
    public Predicate fileFilter() {
        return fileFilter;
    }

    /** Whether the file has no {@code _KEY_*} columns (keys were read from value columns). */
    public boolean thinMode() {
        return thinMode;
    }

    /** Collects the requested columns in read order. Not thread-safe. */
    public static final class Builder {
        private final TableSchema fileSchema;
        private final String fileName;
        private final String tableName;
        private final boolean thin;
        private final Map<Integer, DataField> fileFields = new HashMap<>();
        private final List<DataField> read = new ArrayList<>();
        private final List<ColumnCast> casts = new ArrayList<>();
        /** Per read position: whether values are read as written (usable by the filter). */
        private final List<Boolean> asWritten = new ArrayList<>();
        private Predicate filter;
        private int[] filterPositions;

        private Builder(TableSchema fileSchema, String fileName, String tableName) {
            this.fileSchema = fileSchema;
            this.fileName = fileName;
            this.tableName = tableName;
            this.thin = Boolean.parseBoolean(fileSchema.options().get(THIN_MODE_OPTION));
            for (DataField f : fileSchema.fields()) {
                fileFields.put(f.id(), f);
            }
        }

        /** Whether the file is in thin mode: request value columns first, then keys, so keys can share them. */
        public boolean thinMode() {
            return thin;
        }

        private int add(DataField field, ColumnCast cast, boolean usableByFilter) {
            read.add(field);
            casts.add(cast);
            asWritten.add(usableByFilter);
            return read.size() - 1;
        }

        /**
         * A column of the schema being read, by id.
         *
         * @throws UnsupportedOperationException if its written type cannot be read as its current type
         *     (only possible with schema files not written by an allowed ALTER TABLE)
         */
        public int column(DataField wanted) {
            DataField inFile = fileFields.get(wanted.id());
            if (inFile == null) {
                // Added after this file was written: ask for a name no column can have, which reads as NULL.
                return add(new DataField(wanted.id(), "__absent_field_" + wanted.id() + "__", wanted.type().nullable()),
                        null, false);
            }
            if (inFile.type().equalsIgnoreNullable(wanted.type())) {
                return add(new DataField(wanted.id(), inFile.name(), wanted.type().nullable()), null, true);
            }
            ColumnCast cast;
            try {
                cast = ColumnCast.of(inFile.type(), wanted.type());
            } catch (IllegalArgumentException e) {
                throw new UnsupportedOperationException(cannotRead(wanted, inFile) + ", and " + e.getMessage(), e);
            }
            return add(new DataField(wanted.id(), inFile.name(), cast.fileReadType()), cast, false);
        }

        /**
         * A primary-key column: {@code _KEY_<name in the file schema>}, or in thin mode the value column
         * with the key's id (the one already requested, if any).
         *
         * @throws IllegalStateException if the file schema has no field with the key's id
         * @throws UnsupportedOperationException if the key's type differs from its written type
         */
        public int keyColumn(DataField key) {
            DataField inFile = fileFields.get(key.id());
            if (inFile == null) {
                throw new IllegalStateException("Cannot read data file " + fileName + " of table " + tableName
                        + ": its schema " + fileSchema.id() + " has no field with id " + key.id()
                        + " for primary key column '" + key.name()
                        + "'; primary keys cannot change, so the schema files are inconsistent");
            }
            if (!inFile.type().equalsIgnoreNullable(key.type())) {
                throw new UnsupportedOperationException(cannotRead(key, inFile)
                        + "; the type of a primary key column cannot change");
            }
            if (!thin) {
                return add(new DataField(SystemFields.KEY_FIELD_ID_START + key.id(),
                        SystemFields.KEY_PREFIX + inFile.name(), key.type().nullable()), null, true);
            }
            for (int p = 0; p < read.size(); p++) {
                if (read.get(p).id() == key.id()) {
                    return p;
                }
            }
            return add(new DataField(key.id(), inFile.name(), key.type().nullable()), null, true);
        }

        /** {@code _SEQUENCE_NUMBER} of a primary-key file. */
        public int sequenceNumber() {
            return add(new DataField(SystemFields.SEQUENCE_NUMBER_FIELD_ID, SystemFields.SEQUENCE_NUMBER,
                    DataTypes.BIGINT()), null, true);
        }

        /** {@code _VALUE_KIND} of a primary-key file: the row kind byte of each row. */
        public int valueKind() {
            return add(new DataField(SystemFields.VALUE_KIND_FIELD_ID, SystemFields.VALUE_KIND,
                    DataTypes.TINYINT()), null, true);
        }

        /**
         * The filter whose field {@code i} is the column at read position {@code positions[i]} (-1: not
         * read). Only conjuncts on columns read as written are kept.
         */
        public Builder filter(Predicate predicate, int[] positions) {
            this.filter = predicate;
            this.filterPositions = positions.clone();
            return this;
        }

        public DataFileReadPlan build() {
            Predicate fileFilter = null;
            if (filter != null) {
                int[] mapping = new int[filterPositions.length];
                for (int i = 0; i < mapping.length; i++) {
                    int p = filterPositions[i];
                    mapping[i] = p >= 0 && asWritten.get(p) ? p : -1;
                }
                fileFilter = PredicateBuilder.pickByFieldMapping(filter, mapping).orElse(null);
            }
            return new DataFileReadPlan(new RowType(read), casts.toArray(new ColumnCast[0]), fileFilter, thin);
        }

        private String cannotRead(DataField wanted, DataField inFile) {
            DataType now = wanted.type();
            return "Cannot read column '" + wanted.name() + "' of table " + tableName + " from data file " + fileName
                    + " (schema " + fileSchema.id() + "): it was written as " + inFile.type() + " and is now " + now;
        }
    }
}
