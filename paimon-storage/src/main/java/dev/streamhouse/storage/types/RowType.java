package dev.streamhouse.storage.types;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** {@code ROW<...>}: an ordered list of uniquely named {@link DataField}s. */
public final class RowType extends DataType {
    private static final long serialVersionUID = 1L;

    private final List<DataField> fields;

    public RowType(boolean nullable, List<DataField> fields) {
        super(nullable, DataTypeRoot.ROW);
        this.fields = Collections.unmodifiableList(new ArrayList<>(fields));
        Set<String> names = new HashSet<>();
        for (DataField f : this.fields) {
            if (!names.add(f.name())) {
                throw new IllegalArgumentException("Duplicate field name '" + f.name() + "' in " + fields);
            }
        }
    }

    public RowType(List<DataField> fields) {
        this(true, fields);
    }

    /** A row type over the given types, with names f0, f1, ... and ids 0, 1, .... */
    public static RowType of(DataType... types) {
        List<DataField> fields = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            fields.add(new DataField(i, "f" + i, types[i]));
        }
        return new RowType(fields);
    }

    public List<DataField> fields() {
        return fields;
    }

    public int fieldCount() {
        return fields.size();
    }

    public DataField field(int index) {
        return fields.get(index);
    }

    public DataType typeAt(int index) {
        return fields.get(index).type();
    }

    public List<String> fieldNames() {
        return fields.stream().map(DataField::name).collect(Collectors.toList());
    }

    public List<DataType> fieldTypes() {
        return fields.stream().map(DataField::type).collect(Collectors.toList());
    }

    /** Position of the field with this name, or -1. */
    public int fieldIndex(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Position of the field with this name; fails naming the missing field. */
    public int requireFieldIndex(String name) {
        int index = fieldIndex(name);
        if (index < 0) {
            throw new IllegalArgumentException(
                    "Field '" + name + "' does not exist; fields are " + fieldNames());
        }
        return index;
    }

    public boolean containsField(String name) {
        return fieldIndex(name) >= 0;
    }

    /** The row type of the given positions, in that order. */
    public RowType project(int[] positions) {
        List<DataField> projected = new ArrayList<>(positions.length);
        for (int p : positions) {
            projected.add(fields.get(p));
        }
        return new RowType(isNullable(), projected);
    }

    /** The row type of the named fields, in that order. */
    public RowType project(List<String> names) {
        List<DataField> projected = new ArrayList<>(names.size());
        for (String n : names) {
            projected.add(fields.get(requireFieldIndex(n)));
        }
        return new RowType(isNullable(), projected);
    }

    /** Largest field id in this row, nested row fields included; -1 when empty. */
    public int highestFieldId() {
        int max = -1;
        for (DataField f : fields) {
            max = Math.max(max, Math.max(f.id(), DataTypes.highestNestedFieldId(f.type())));
        }
        return max;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new RowType(nullable, fields);
    }

    @Override
    protected String sqlWithoutNullability() {
        return "ROW<"
                + fields.stream()
                        .map(f -> "`" + f.name() + "` " + f.type().asSQLString())
                        .collect(Collectors.joining(", "))
                + ">";
    }

    @Override
    public boolean equalsIgnoreNullable(DataType other) {
        if (!(other instanceof RowType) || ((RowType) other).fields.size() != fields.size()) {
            return false;
        }
        for (int i = 0; i < fields.size(); i++) {
            DataField a = fields.get(i);
            DataField b = ((RowType) other).fields.get(i);
            if (!a.name().equals(b.name()) || !a.type().equalsIgnoreNullable(b.type())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((RowType) o).fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), fields);
    }
}
