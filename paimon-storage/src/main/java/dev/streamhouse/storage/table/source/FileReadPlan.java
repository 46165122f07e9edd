package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * How to read wanted table columns from a file written with an older (or the same) schema: columns
 * are matched by field id, so renamed columns keep their data and columns added later read as NULL.
 * A column whose type changed since the file was written is refused until type casting exists.
 */
final class FileReadPlan {
    /** The columns to ask the file for (file names and types); missing ones get an absent name. */
    final RowType fileReadType;
    /** The filter in fileReadType positions, or null. */
    final Predicate fileFilter;

    private FileReadPlan(RowType fileReadType, Predicate fileFilter) {
        this.fileReadType = fileReadType;
        this.fileFilter = fileFilter;
    }

    /**
     * @param wanted the table fields to read, in output order
     * @param filter a predicate over {@code wanted} positions, or null
     */
    static FileReadPlan of(List<DataField> wanted, TableSchema fileSchema, Predicate filter, String fileName,
            String tableName) {
        List<DataField> out = new ArrayList<>(wanted.size());
        int[] filterMapping = new int[wanted.size()];
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
            if (!inFile.type().equalsIgnoreNullable(w.type())) {
                throw new UnsupportedOperationException("Cannot read column '" + w.name() + "' of table " + tableName
                        + " from file " + fileName + ": it was written as " + inFile.type() + " and is now "
                        + w.type() + "; reading changed column types is not supported yet");
            }
            out.add(new DataField(w.id(), inFile.name(), w.type().nullable()));
            filterMapping[i] = i;
        }
        Predicate fileFilter = filter == null
                ? null
                : PredicateBuilder.pickByFieldMapping(filter, filterMapping).orElse(null);
        return new FileReadPlan(new RowType(out), fileFilter);
    }
}
