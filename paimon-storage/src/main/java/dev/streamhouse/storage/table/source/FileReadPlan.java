package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.casting.CastedRow;
import dev.streamhouse.storage.casting.ColumnCast;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * How to read wanted table columns from a file written with an older (or the same) schema: columns
 * are matched by field id, so renamed columns keep their data, columns added later read as NULL, and
 * a dropped column that was re-added under the same name (a new id) reads as NULL from old files.
 * A column whose type was widened since the file was written is read in its written type and
 * converted ({@link ColumnCast}); conjuncts of the filter on such columns are not used to skip row
 * groups of that file.
 */
final class FileReadPlan {
    /** The columns to ask the file for (file names and types); missing ones get an absent name. */
    final RowType fileReadType;
    /** The filter in fileReadType positions, or null. */
    final Predicate fileFilter;
    /** Per read position, the cast to the wanted type, or null when the types are equal. */
    private final ColumnCast[] casts;

    private FileReadPlan(RowType fileReadType, Predicate fileFilter, ColumnCast[] casts) {
        this.fileReadType = fileReadType;
        this.fileFilter = fileFilter;
        this.casts = casts;
    }

    /** Whether rows read from the file must be converted with {@link #castedRow()}. */
    boolean needsCast() {
        return CastedRow.needed(casts);
    }

    /** A reusable view of file rows in the wanted types. */
    CastedRow castedRow() {
        return new CastedRow(casts);
    }

    /**
     * @param wanted the table fields to read, in output order
     * @param filter a predicate over {@code wanted} positions, or null
     * @throws UnsupportedOperationException if a column's written type cannot be read as its current
     *     type (only possible with schema files not written by an allowed ALTER TABLE)
     */
    static FileReadPlan of(List<DataField> wanted, TableSchema fileSchema, Predicate filter, String fileName,
            String tableName) {
        List<DataField> out = new ArrayList<>(wanted.size());
        int[] filterMapping = new int[wanted.size()];
        ColumnCast[] casts = new ColumnCast[wanted.size()];
        for (int i = 0; i < wanted.size(); i++) {
            DataField w = wanted.get(i);
            DataField inFile = null;
            for (DataField f : fileSchema.fields()) {
                if (f.id() == w.id()) {
                    inFile = f;
                    break;
                }
            }
            if (inFile == null) {
                // Not in this file's schema: ask for a name no column can have, which reads as NULL.
                out.add(new DataField(w.id(), "__absent_field_" + w.id() + "__", w.type().nullable()));
                filterMapping[i] = -1;
                continue;
            }
            if (inFile.type().equalsIgnoreNullable(w.type())) {
                out.add(new DataField(w.id(), inFile.name(), w.type().nullable()));
                filterMapping[i] = i;
                continue;
            }
            ColumnCast cast;
            try {
                cast = ColumnCast.of(inFile.type(), w.type());
            } catch (IllegalArgumentException e) {
                throw new UnsupportedOperationException("Cannot read column '" + w.name() + "' of table " + tableName
                        + " from file " + fileName + ": it was written as " + inFile.type() + " (schema "
                        + fileSchema.id() + ") and is now " + w.type() + ", and " + e.getMessage(), e);
            }
            out.add(new DataField(w.id(), inFile.name(), cast.fileReadType()));
            casts[i] = cast;
            filterMapping[i] = -1;
        }
        Predicate fileFilter = filter == null
                ? null
                : PredicateBuilder.pickByFieldMapping(filter, filterMapping).orElse(null);
        return new FileReadPlan(new RowType(out), fileFilter, casts);
    }
}
