package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.aggregate.FieldAggregator;
import dev.streamhouse.storage.options.MergeEngineOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The {@code partial-update} merge engine's factory: it parses and checks the options once (sequence
 * groups, aggregate functions of group columns, delete handling) and creates
 * {@link PartialUpdateMergeFunction}s over all columns or over a read projection widened by the
 * sequence columns the wanted columns depend on.
 */
final class PartialUpdateEngine implements MergeFunctionFactory {
    private static final long serialVersionUID = 1L;

    static final String RETRACT_REFUSAL = "Partial update cannot take delete records (-D/-U) by default. Set "
            + "'ignore-delete' = 'true' to drop them, 'partial-update.remove-record-on-delete' = 'true' to remove "
            + "the whole row on -D, or define 'fields.<sequence column>.sequence-group's to retract the columns "
            + "of a group (with 'partial-update.remove-record-on-sequence-group' to remove the whole row on a -D "
            + "of the groups it names)";

    private final RowType rowType;
    private final List<String> primaryKeys;
    private final Options options;
    private final boolean ignoreDelete;
    private final boolean removeRecordOnDelete;
    private final transient SequenceGroups groups;
    private final transient Supplier<FieldAggregator>[] aggregators;
    private final transient Set<String> removeRowGroups;
    /** Table positions of the layout the merge functions work on. */
    private final int[] layout;

    PartialUpdateEngine(RowType rowType, List<String> primaryKeys, Options options) {
        this(rowType, primaryKeys, options, LayoutColumns.all(rowType.fieldCount()));
    }

    private PartialUpdateEngine(RowType rowType, List<String> primaryKeys, Options options, int[] layout) {
        this.rowType = rowType;
        this.primaryKeys = List.copyOf(primaryKeys);
        this.options = options;
        this.layout = layout;
        this.ignoreDelete = options.get(MergeTreeOptions.IGNORE_DELETE);
        this.removeRecordOnDelete = options.get(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE);
        this.groups = SequenceGroups.parse(rowType, options);
        this.aggregators = FieldFunctions.suppliers(rowType,
                FieldFunctions.forPartialUpdate(rowType, primaryKeys, groups, options), options);
        this.removeRowGroups = removeRowGroups();
        checkDeleteOptions();
    }

    private Set<String> removeRowGroups() {
        String configured = options.get(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP);
        Set<String> out = new HashSet<>();
        if (configured == null) {
            return out;
        }
        for (String name : configured.split(",")) {
            String trimmed = name.trim();
            if (!groups.isSequenceField(trimmed)) {
                throw new IllegalArgumentException("Option '"
                        + MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP.key() + "' names '" + trimmed
                        + "', which is not the sequence column of a 'fields.<sequence column>.sequence-group'");
            }
            out.add(trimmed);
        }
        return out;
    }

    private void checkDeleteOptions() {
        String removeOnDelete = MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE.key();
        if (removeRecordOnDelete && ignoreDelete) {
            throw conflict(MergeTreeOptions.IGNORE_DELETE.key(), removeOnDelete);
        }
        if (!removeRowGroups.isEmpty() && ignoreDelete) {
            throw conflict(MergeTreeOptions.IGNORE_DELETE.key(),
                    MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP.key());
        }
        if (removeRecordOnDelete && !groups.isEmpty()) {
            throw conflict("fields.<column>.sequence-group", removeOnDelete);
        }
    }

    private static IllegalArgumentException conflict(String a, String b) {
        return new IllegalArgumentException("Options '" + a + "' and '" + b + "' contradict each other; set only one");
    }

    @Override
    public MergeFunction create() {
        int n = layout.length;
        LayoutColumns columns = new LayoutColumns(rowType, layout, "partial-update");
        FieldAggregator[] fieldAggregators = new FieldAggregator[n];
        PartialUpdateMergeFunction.Group[] layoutGroups = new PartialUpdateMergeFunction.Group[n];
        RowType layoutType = rowType.project(layout);
        List<SequenceGroups.Group> seen = new ArrayList<>();
        List<PartialUpdateMergeFunction.Group> built = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int tablePos = layout[i];
            fieldAggregators[i] = aggregators[tablePos] == null ? null : aggregators[tablePos].get();
            SequenceGroups.Group group = groups.groupOf(tablePos);
            if (group != null) {
                int index = seen.indexOf(group);
                if (index < 0) {
                    seen.add(group);
                    built.add(inLayout(group, layoutType));
                    index = built.size() - 1;
                }
                layoutGroups[i] = built.get(index);
            }
        }
        return new SingleVersionAsIs(new PartialUpdateMergeFunction(columns, layoutGroups, !groups.isEmpty(),
                fieldAggregators, ignoreDelete, removeRecordOnDelete));
    }

    private PartialUpdateMergeFunction.Group inLayout(SequenceGroups.Group group, RowType layoutType) {
        int[] positions = new int[group.sequenceFields().length];
        boolean removesRow = false;
        for (int i = 0; i < positions.length; i++) {
            int tablePos = group.sequenceFields()[i];
            positions[i] = indexOf(layout, tablePos);
            if (positions[i] < 0) {
                throw new IllegalStateException("Cannot merge a partial update: sequence column '"
                        + rowType.field(tablePos).name() + "' of option '" + group.option() + "' was not read");
            }
            removesRow |= removeRowGroups.contains(rowType.field(tablePos).name());
        }
        return new PartialUpdateMergeFunction.Group(positions, new KeyRowComparator(layoutType, positions), removesRow);
    }

    /** Rebuilds the parsed options after deserialization. */
    private Object readResolve() {
        return new PartialUpdateEngine(rowType, primaryKeys, options, layout);
    }

    private static int indexOf(int[] array, int value) {
        for (int i = 0; i < array.length; i++) {
            if (array[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** The wanted columns, then the sequence columns of their groups and of the groups that remove rows. */
    @Override
    public int[] readFields(int[] wanted, int fieldCount) {
        Set<Integer> out = new LinkedHashSet<>();
        for (int w : wanted) {
            out.add(w);
        }
        for (int w : wanted) {
            SequenceGroups.Group group = groups.groupOf(w);
            if (group != null) {
                for (int s : group.sequenceFields()) {
                    out.add(s);
                }
            }
        }
        for (SequenceGroups.Group group : groups.groups()) {
            for (int s : group.sequenceFields()) {
                if (removeRowGroups.contains(rowType.field(s).name())) {
                    for (int all : group.sequenceFields()) {
                        out.add(all);
                    }
                }
            }
        }
        for (int p = 0; p < fieldCount; p++) {
            if (!rowType.typeAt(p).isNullable()) {
                out.add(p); // NOT NULL columns are copied into removed rows and checked on every version
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public MergeFunctionFactory forReadFields(int[] readFields) {
        return new PartialUpdateEngine(rowType, primaryKeys, options, readFields.clone());
    }

    /** Retractions are taken only when an option says what they do. */
    @Override
    public String refusesInput(RowKind kind) {
        if (!kind.isRetract() || ignoreDelete || removeRecordOnDelete || !groups.isEmpty()) {
            return null;
        }
        return RETRACT_REFUSAL;
    }

    /** Whether an aggregate function is defined, so the sink keeps -U rows for retraction. */
    @Override
    public boolean retractsUpdateBefore() {
        return FieldFunctions.definesAggregateFunction(options);
    }
}
