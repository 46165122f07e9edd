package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.casting.ColumnCast;
import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.options.InvalidOptionsException;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.OptionValidator;
import dev.streamhouse.storage.options.TableShape;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Builds the next schema version from the latest one and a list of {@link SchemaChange}s, applied in
 * order; the rules are listed on {@link SchemaManager#commitChanges}. Pure: reads and writes nothing.
 * Every refusal is a {@link SchemaChangeException} naming the table and the column or option.
 */
final class SchemaEvolution {
    private static final String FIELD_OPTION_PREFIX = "fields.";

    private final TableSchema base;
    private final String table;
    private final List<DataField> fields;
    private final Map<String, String> options;
    private int highestFieldId;
    private String comment;

    private SchemaEvolution(TableSchema base, String table) {
        this.base = base;
        this.table = table;
        this.fields = new ArrayList<>(base.fields());
        this.options = new HashMap<>(base.options());
        this.highestFieldId = base.highestFieldId();
        this.comment = base.comment();
    }

    /**
     * The schema after {@code changes}: id {@code base.id() + 1} and {@code timeMillis}, or {@code base}
     * itself when the changes leave everything as it was.
     */
    static TableSchema apply(TableSchema base, List<SchemaChange> changes, long timeMillis, String table) {
        SchemaEvolution evolution = new SchemaEvolution(base, table);
        for (SchemaChange change : changes) {
            evolution.apply(Objects.requireNonNull(change, "change"));
        }
        return evolution.result(timeMillis);
    }

    private TableSchema result(long timeMillis) {
        if (fields.equals(base.fields()) && options.equals(base.options()) && Objects.equals(comment, base.comment())
                && highestFieldId == base.highestFieldId()) {
            return base;
        }
        checkOptions();
        return new TableSchema(TableSchema.CURRENT_VERSION, base.id() + 1, fields, highestFieldId, base.partitionKeys(),
                base.primaryKeys(), options, comment, timeMillis);
    }

    /** The changed options, one by one, and the new options as a whole (see {@link OptionValidator}). */
    private void checkOptions() {
        Set<String> changed = new HashSet<>();
        for (String key : options.keySet()) {
            if (!Objects.equals(options.get(key), base.options().get(key))) {
                changed.add(key);
            }
        }
        List<String> columns = new ArrayList<>();
        fields.forEach(f -> columns.add(f.name()));
        try {
            OptionValidator.instance().checkAlteredTable("Table " + table,
                    new TableShape(columns, base.primaryKeys(), base.partitionKeys()), options, changed);
        } catch (InvalidOptionsException e) {
            throw new SchemaChangeException("Cannot alter table " + table + ": " + e.getMessage());
        }
    }

    private void apply(SchemaChange change) {
        if (change instanceof SchemaChange.SetOption c) {
            OptionChangeRules.checkSet(table, c.key(), options.get(c.key()), c.value());
            options.put(c.key(), c.value());
        } else if (change instanceof SchemaChange.RemoveOption c) {
            OptionChangeRules.checkRemove(table, c.key(), options.get(c.key()));
            options.remove(c.key());
        } else if (change instanceof SchemaChange.UpdateComment c) {
            comment = c.comment();
        } else if (change instanceof SchemaChange.AddColumn c) {
            addColumn(c);
        } else if (change instanceof SchemaChange.DropColumn c) {
            dropColumn(c.name());
        } else if (change instanceof SchemaChange.RenameColumn c) {
            renameColumn(c.oldName(), c.newName());
        } else if (change instanceof SchemaChange.UpdateColumnType c) {
            updateType(c.name(), c.newType());
        } else if (change instanceof SchemaChange.UpdateColumnNullability c) {
            updateNullability(c.name(), c.nullable());
        } else if (change instanceof SchemaChange.UpdateColumnComment c) {
            int i = require(c.name(), "change the comment of");
            DataField f = fields.get(i);
            fields.set(i, new DataField(f.id(), f.name(), f.type(), c.comment(), f.defaultValue()));
        } else if (change instanceof SchemaChange.UpdateColumnPosition c) {
            int i = require(c.name(), "move");
            DataField f = fields.remove(i);
            insert(f, c.position(), "move column '" + c.name() + "' of");
        }
    }

    // ---- columns ----

    private void addColumn(SchemaChange.AddColumn c) {
        String what = "add column '" + c.name() + "' to";
        if (indexOf(c.name()) >= 0) {
            throw new SchemaChangeException.ColumnAlreadyExist(c.name(),
                    "Cannot " + what + " table " + table + ": a column with that name already exists");
        }
        checkName(c.name(), what);
        if (!c.type().isNullable()) {
            throw new SchemaChangeException("Cannot " + what + " table " + table + ": a new column must be nullable, "
                    + "since rows written before have no value for it; add it as " + c.type().nullable());
        }
        int[] nextId = {highestFieldId + 1};
        int id = nextId[0]++;
        DataType type = DataTypes.assignNestedIds(c.type(), nextId);
        highestFieldId = nextId[0] - 1;
        insert(new DataField(id, c.name(), type, c.comment(), null), c.position(), what);
    }

    private void dropColumn(String name) {
        int i = require(name, "drop");
        refuseKeyColumn(name, "drop");
        if (fields.size() == 1) {
            throw new SchemaChangeException("Cannot drop column '" + name + "' of table " + table
                    + ": it is the only column; a table needs at least one");
        }
        fields.remove(i);
        moveFieldOptions(name, null);
    }

    private void renameColumn(String oldName, String newName) {
        String what = "rename column '" + oldName + "' of";
        int i = require(oldName, "rename");
        if (oldName.equals(newName)) {
            return;
        }
        refuseKeyColumn(oldName, "rename");
        if (indexOf(newName) >= 0) {
            throw new SchemaChangeException.ColumnAlreadyExist(newName, "Cannot " + what + " table " + table + " to '"
                    + newName + "': a column with that name already exists");
        }
        checkName(newName, what);
        fields.set(i, fields.get(i).withName(newName));
        moveFieldOptions(oldName, newName);
    }

    /**
     * Per-column options ({@code fields.<column>.<option>}, e.g. {@code fields.c.stats-mode}) follow a
     * renamed column and disappear with a dropped one ({@code newName} null).
     */
    private void moveFieldOptions(String oldName, String newName) {
        String oldPrefix = FIELD_OPTION_PREFIX + oldName + ".";
        for (String key : new ArrayList<>(options.keySet())) {
            if (key.startsWith(oldPrefix)) {
                String value = options.remove(key);
                if (newName != null) {
                    options.put(FIELD_OPTION_PREFIX + newName + "." + key.substring(oldPrefix.length()), value);
                }
            }
        }
    }

    private void updateType(String name, DataType requested) {
        int i = require(name, "change the type of");
        DataField f = fields.get(i);
        String what = "change column '" + name + "' of table " + table + " from " + f.type().copy(true) + " to "
                + requested.copy(true);
        if (f.type().equalsIgnoreNullable(requested)) {
            return;
        }
        String role = partitionPrimaryOrBucketRole(name);
        if (role != null) {
            throw new SchemaChangeException("Cannot " + what + ": " + role);
        }
        ColumnCast.refusal(f.type(), requested).ifPresent(why -> {
            throw new SchemaChangeException("Cannot " + what + ": " + why);
        });
        DataType newType = f.type().root() == DataTypeRoot.ROW
                ? appendRowFields((RowType) f.type(), (RowType) requested)
                : requested;
        fields.set(i, f.withType(newType.copy(f.type().isNullable())));
    }

    /** The current row type plus the appended fields of {@code requested}, which get fresh ids. */
    private RowType appendRowFields(RowType current, RowType requested) {
        List<DataField> out = new ArrayList<>(current.fields());
        int[] nextId = {highestFieldId + 1};
        for (int j = current.fieldCount(); j < requested.fieldCount(); j++) {
            DataField added = requested.field(j);
            int id = nextId[0]++;
            DataType type = DataTypes.assignNestedIds(added.type(), nextId);
            out.add(new DataField(id, added.name(), type, added.description(), added.defaultValue()));
        }
        highestFieldId = nextId[0] - 1;
        return new RowType(current.isNullable(), out);
    }

    private void updateNullability(String name, boolean nullable) {
        int i = require(name, "change the nullability of");
        DataField f = fields.get(i);
        if (f.type().isNullable() == nullable) {
            return;
        }
        if (nullable && base.primaryKeys().contains(name)) {
            throw new SchemaChangeException("Cannot make column '" + name + "' of table " + table
                    + " nullable: it is part of the primary key, whose columns are always NOT NULL");
        }
        if (!nullable) {
            throw new SchemaChangeException("Cannot make column '" + name + "' of table " + table
                    + " NOT NULL: files written before may hold NULLs in it, and changing a nullable column to "
                    + "NOT NULL is not supported");
        }
        fields.set(i, f.withType(f.type().nullable()));
    }

    // ---- helpers ----

    private void insert(DataField field, SchemaChange.Move position, String what) {
        switch (position.kind()) {
            case FIRST:
                fields.add(0, field);
                break;
            case LAST:
                fields.add(field);
                break;
            default: {
                String reference = position.referenceColumn();
                if (reference.equals(field.name())) {
                    throw new SchemaChangeException("Cannot " + what + " table " + table
                            + ": it cannot be placed after itself");
                }
                int at = indexOf(reference);
                if (at < 0) {
                    throw new SchemaChangeException.ColumnNotExist(reference, "Cannot " + what + " table " + table
                            + ": reference column '" + reference + "' of AFTER does not exist; columns are " + names());
                }
                fields.add(at + 1, field);
            }
        }
    }

    private void checkName(String name, String what) {
        if (name.isEmpty()) {
            throw new SchemaChangeException("Cannot " + what + " table " + table + ": a column name must not be empty");
        }
        if (InitialSchemaFactory.RESERVED_NAMES.contains(name) || name.startsWith(InitialSchemaFactory.RESERVED_PREFIX)) {
            throw new SchemaChangeException("Cannot " + what + " table " + table + ": the name '" + name
                    + "' is reserved by the data file layout (names " + InitialSchemaFactory.RESERVED_NAMES
                    + " and the prefix '" + InitialSchemaFactory.RESERVED_PREFIX + "' are reserved)");
        }
    }

    private int require(String name, String verb) {
        int i = indexOf(name);
        if (i < 0) {
            throw new SchemaChangeException.ColumnNotExist(name, "Cannot " + verb + " column '" + name + "' of table "
                    + table + ": it does not exist; columns are " + names());
        }
        return i;
    }

    private void refuseKeyColumn(String name, String verb) {
        String role = partitionPrimaryOrBucketRole(name);
        if (role == null) {
            role = optionRole(name);
        }
        if (role != null) {
            throw new SchemaChangeException("Cannot " + verb + " column '" + name + "' of table " + table + ": " + role);
        }
    }

    /** Why the column's type and name are fixed: it locates rows (partition, key, bucket); else null. */
    private String partitionPrimaryOrBucketRole(String name) {
        if (base.partitionKeys().contains(name)) {
            return "it is a partition key, and altering partition keys is not supported yet";
        }
        if (base.primaryKeys().contains(name)) {
            return "it is part of the primary key, and altering the primary key is not supported yet";
        }
        if (listOption(BucketOptions.BUCKET_KEY.key()).contains(name)) {
            return "it is a bucket key (option 'bucket-key'), which is fixed when the table is created";
        }
        return null;
    }

    /** Why the column's name is fixed: an immutable option names it; else null. */
    private String optionRole(String name) {
        if (listOption(MergeTreeOptions.SEQUENCE_FIELD.key()).contains(name)) {
            return "it is a sequence field (option 'sequence.field'), which is fixed when the table is created";
        }
        if (name.equals(options.get(MergeTreeOptions.ROWKIND_FIELD.key()))) {
            return "it is the row kind field (option 'rowkind.field'), which is fixed when the table is created";
        }
        return null;
    }

    private List<String> listOption(String key) {
        String raw = options.get(key);
        List<String> out = new ArrayList<>();
        if (raw != null) {
            for (String part : raw.split(",")) {
                out.add(part.trim());
            }
        }
        return out;
    }

    private int indexOf(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private List<String> names() {
        List<String> out = new ArrayList<>();
        for (DataField f : fields) {
            out.add(f.name());
        }
        return out;
    }
}
