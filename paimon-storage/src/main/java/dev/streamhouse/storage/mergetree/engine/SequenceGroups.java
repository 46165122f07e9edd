package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sequence groups of a partial-update table: each option {@code fields.<s1,s2>.sequence-group} =
 * {@code <f1,f2>} makes the columns {@code f1, f2} change only together with, and in the order of, the
 * sequence columns {@code s1, s2}. A column belongs to at most one group; the sequence columns count as
 * members of their own group. Positions are those of the table row.
 */
final class SequenceGroups {
    private static final String PREFIX = "fields.";
    private static final String SUFFIX = ".sequence-group";

    /** One group: its sequence columns (in option order) and its other member columns. */
    record Group(String option, int[] sequenceFields, int[] members) {
        boolean isSequenceField(int pos) {
            for (int s : sequenceFields) {
                if (s == pos) {
                    return true;
                }
            }
            return false;
        }
    }

    private final List<Group> groups;
    /** Group of each table column, or null. */
    private final Group[] groupOf;
    private final Map<String, Group> bySequenceField;

    private SequenceGroups(List<Group> groups, Group[] groupOf, Map<String, Group> bySequenceField) {
        this.groups = groups;
        this.groupOf = groupOf;
        this.bySequenceField = bySequenceField;
    }

    /**
     * Parses the {@code fields.*.sequence-group} options.
     *
     * @throws IllegalArgumentException naming the option when a column does not exist or is in two groups
     */
    static SequenceGroups parse(RowType rowType, Options options) {
        List<Group> groups = new ArrayList<>();
        Group[] groupOf = new Group[rowType.fieldCount()];
        Map<String, Group> bySequenceField = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.toMap().entrySet()) {
            String key = e.getKey();
            if (!key.startsWith(PREFIX) || !key.endsWith(SUFFIX) || key.length() <= PREFIX.length() + SUFFIX.length()) {
                continue;
            }
            String[] sequenceNames = key.substring(PREFIX.length(), key.length() - SUFFIX.length()).split(",");
            int[] sequence = positions(rowType, key, sequenceNames, "sequence column");
            int[] members = positions(rowType, key, e.getValue().split(","), "column");
            Group group = new Group(key, sequence, members);
            groups.add(group);
            for (int m : members) {
                if (groupOf[m] != null && groupOf[m] != group) {
                    throw new IllegalArgumentException("Option '" + key + "' puts column '"
                            + rowType.field(m).name() + "' into a sequence group, and option '" + groupOf[m].option()
                            + "' already does; a column belongs to at most one sequence group");
                }
                groupOf[m] = group;
            }
            for (int i = 0; i < sequence.length; i++) {
                groupOf[sequence[i]] = group;
                bySequenceField.put(sequenceNames[i].trim(), group);
            }
        }
        return new SequenceGroups(List.copyOf(groups), groupOf, bySequenceField);
    }

    private static int[] positions(RowType rowType, String option, String[] names, String what) {
        int[] out = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            String name = names[i].trim();
            out[i] = rowType.fieldIndex(name);
            if (out[i] < 0) {
                throw new IllegalArgumentException("Option '" + option + "' names " + what + " '" + name
                        + "', which does not exist; columns are " + rowType.fieldNames());
            }
        }
        return out;
    }

    boolean isEmpty() {
        return groups.isEmpty();
    }

    List<Group> groups() {
        return groups;
    }

    /** The group of table column {@code pos} (as member or as sequence column), or null. */
    Group groupOf(int pos) {
        return groupOf[pos];
    }

    /** The group whose sequence columns include {@code name}, or null. */
    Group bySequenceField(String name) {
        return bySequenceField.get(name);
    }

    /** Whether {@code name} is a sequence column of some group. */
    boolean isSequenceField(String name) {
        return bySequenceField.containsKey(name);
    }

    /** Whether column {@code pos} is a member (not a sequence column) of a group. */
    boolean isMember(int pos) {
        return groupOf[pos] != null && !groupOf[pos].isSequenceField(pos);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (Group g : groups) {
            out.append(g.option()).append(Arrays.toString(g.sequenceFields())).append(Arrays.toString(g.members()));
        }
        return out.toString();
    }
}
