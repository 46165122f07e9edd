package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a user asks for when creating a table: columns, partition keys, primary key, options and a
 * comment. Field ids are assigned in column order, nested row fields taking the ids after their
 * column's (docs/format.md §3.2).
 */
public final class Schema {
    private final List<DataField> fields;
    private final List<String> partitionKeys;
    private final List<String> primaryKeys;
    private final Map<String, String> options;
    private final String comment;

    private Schema(List<DataField> fields, List<String> partitionKeys, List<String> primaryKeys,
            Map<String, String> options, String comment) {
        this.fields = List.copyOf(fields);
        this.partitionKeys = List.copyOf(partitionKeys);
        this.primaryKeys = List.copyOf(primaryKeys);
        this.options = Map.copyOf(options);
        this.comment = comment;
    }

    public static Builder newBuilder() {
        return new Builder();
    }

    public List<DataField> fields() {
        return fields;
    }

    public List<String> partitionKeys() {
        return partitionKeys;
    }

    public List<String> primaryKeys() {
        return primaryKeys;
    }

    public Map<String, String> options() {
        return options;
    }

    public String comment() {
        return comment;
    }

    /** Builds a {@link Schema}. */
    public static final class Builder {
        private final List<DataField> fields = new ArrayList<>();
        private final int[] nextId = {0};
        private List<String> partitionKeys = new ArrayList<>();
        private List<String> primaryKeys = new ArrayList<>();
        private final Map<String, String> options = new HashMap<>();
        private String comment;

        public Builder column(String name, DataType type) {
            return column(name, type, null);
        }

        public Builder column(String name, DataType type, String description) {
            int id = nextId[0]++;
            DataType withIds = DataTypes.assignNestedIds(type, nextId);
            fields.add(new DataField(id, name, withIds, description, null));
            return this;
        }

        public Builder partitionKeys(String... keys) {
            this.partitionKeys = Arrays.asList(keys);
            return this;
        }

        public Builder partitionKeys(List<String> keys) {
            this.partitionKeys = new ArrayList<>(keys);
            return this;
        }

        public Builder primaryKey(String... keys) {
            this.primaryKeys = Arrays.asList(keys);
            return this;
        }

        public Builder primaryKey(List<String> keys) {
            this.primaryKeys = new ArrayList<>(keys);
            return this;
        }

        public Builder option(String key, String value) {
            options.put(key, value);
            return this;
        }

        public Builder options(Map<String, String> values) {
            options.putAll(values);
            return this;
        }

        public Builder comment(String comment) {
            this.comment = comment;
            return this;
        }

        public Schema build() {
            return new Schema(fields, partitionKeys, primaryKeys, options, comment);
        }
    }
}
